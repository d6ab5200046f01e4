"""The Debugger's heap graph questions (mixed into pyinspect.Debugger): why an object of
the paused debuggee is alive, read from the heap at this stop, its stack roots naming the
local that holds them (the heap alone knows the slot, the debugger its name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyinspect.answers.heap_workspace import HeapWorkspace, object_address
from pyinspect.answers.progress import walk_progress
from pyinspect.heap.graph import parse_address
from pyinspect.models.heapgraph import RetentionPaths

if TYPE_CHECKING:
    from pyinspect.session.debug_session import Session

__all__ = ["HeapPathMethods"]


class HeapPathMethods:
    session: Session
    _heaps: HeapWorkspace | None = None

    def path_to_root(self, target: int | str, max_paths: int = 5, frame_index: int = 0,
                     thread_id: int | None = None, progress: bool = True) -> RetentionPaths:
        """Why is this object alive: the shortest paths from its roots, each step named; a
        root on a thread's stack names its frame's local (``root.local``). ``target`` is an
        address (an int or ``"0x..."``) or an expression in scope at the stop. The graph is
        built at the first call after each stop (a progress bar), then reused.
        Raises NotPausedError, VariableUnavailableError, InvalidParameterError.
        Example: ``dbg.path_to_root("orders").paths[0].root.local``"""
        if self._heaps is None:
            self._heaps = HeapWorkspace(lambda: self.session)
        address = self._address_of(target, frame_index, thread_id)
        with walk_progress(notebook=True, disable=not progress) as advance:
            graph, _ = self._heaps.graph(advance)
        return self._heaps.name_stack_locals(graph.paths(address, max_paths))

    def _address_of(self, target: int | str, frame_index: int, thread_id: int | None) -> int:
        if isinstance(target, int) or target.strip().lower().startswith("0x"):
            return parse_address(target)
        return object_address(self.session, target, thread_id, frame_index)
