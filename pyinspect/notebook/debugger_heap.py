"""The Debugger's heap graph questions (mixed into pyinspect.Debugger): why an object of
the paused debuggee is alive, read from the heap at this stop, its stack roots naming the
local that holds them (the heap alone knows the slot, the debugger its name). The graph is
the session's heap workspace's, the one the MCP heap tools read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyinspect.models.heapgraph import RetentionPaths
from pyinspect.notebook.progress import walk_progress
from pyinspect.session.heap_queries import retention_answer
from pyinspect.session.heap_terms import parse_address
from pyinspect.session.row_limits import check_count

if TYPE_CHECKING:
    from pyinspect.session.debug_session import Session

__all__ = ["HeapPathMethods"]


class HeapPathMethods:
    session: Session

    def path_to_root(self, target: int | str, max_paths: int = 5, frame_index: int = 0,
                     thread_id: int | None = None, progress: bool = True) -> RetentionPaths:
        """Why is this object alive: up to max_paths shortest paths from its roots, each
        step named; a root on a thread's stack names its frame's local (``root.local``). ``target`` is an
        address (an int or ``"0x..."``) or an expression in scope at the stop. The graph is
        built at the first call after each stop (a progress bar), then reused.
        Raises NotPausedError, VariableUnavailableError, InvalidParameterError.
        Example: ``dbg.path_to_root("orders").paths[0].root.local``"""
        check_count("max_paths", max_paths, None)
        heaps = self.session.heaps
        address = self._address_of(target, frame_index, thread_id)
        with walk_progress(progress and not heaps.graph_ready()) as advance:
            graph, source = heaps.graph(advance)
        return retention_answer(graph, source, address, max_paths, heaps.name_stack_locals).retention

    def _address_of(self, target: int | str, frame_index: int, thread_id: int | None) -> int:
        if isinstance(target, int) or target.strip().lower().startswith("0x"):
            return parse_address(target)
        return self.session.heaps.resolve_address(target, thread_id, frame_index)
