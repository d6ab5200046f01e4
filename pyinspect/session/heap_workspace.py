"""HeapWorkspace: the one owner of the heap a session reads: which heap the heap questions
read, the graph built from it, and the snapshots taken so far. The MCP tools, the notebook's
Heap and Debugger and the command line all reach the heap through one.

Three ways in, one set of questions: a heap opened on its own (``attach``: a live
process that keeps running; ``open_dump``: a core dump), else the paused debug
session's process (through a DebuggeeLink: pyinspect.session.heap_sources). The graph is
built once per source and reused: a dump never changes; the debug session's is rebuilt
after the process ran (its stop epoch moved); a live process's is reused, and every answer
says it may have changed since (``snapshot`` reads it afresh). Snapshots outlive their
source, so two dumps diff too.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyinspect.errors import (
    InvalidParameterError,
    NoHeapError,
    NoSessionError,
    NotPausedError,
)
from pyinspect.heap.reader import HeapReader, ProgressCallback
from pyinspect.heap.stepping import BuildCancelled
from pyinspect.models.heap_source import HeapSource, SourceKind
from pyinspect.session.heap_sources import DebuggeeHeap, DebuggeeLink, Opened, new_dump_file
from pyinspect.session.snapshot_book import MAX_SNAPSHOTS, SnapshotBook, Taken

if TYPE_CHECKING:  # a one-shot command that builds no graph loads neither (pyinspect.heap.reader.graph)
    from pyinspect.heap.graph import HeapGraph
    from pyinspect.models.heap_answers import DumpCreateAnswer
    from pyinspect.models.heapgraph import RetentionPaths

__all__ = ["MAX_SNAPSHOTS", "BuildCancelled", "HeapWorkspace", "Taken"]


@dataclass
class _Built:
    graph: HeapGraph
    key: tuple[Any, ...]
    built_at: float
    array_bytes: int = 0


def _opened_key(opened: Opened) -> tuple[Any, ...]:
    """What a graph of a heap opened on its own was built from: a dump reader that a damaged
    dump ended starts again (a new generation), and its graph is built again."""
    return opened.reader, opened.reader.generation, "opened"


class HeapWorkspace:
    """Thread-safe: MCP tools call it from worker threads; one graph is built at a time.
    ``debuggee`` links it to a debug session (the Session's own workspace); without it only
    a heap opened on its own is read (the notebook's Heap, a command line run). ``snapshots``:
    a book shared with other workspaces (one MCP client's heaps), else its own."""

    def __init__(self, debuggee: DebuggeeLink | None = None, snapshots: SnapshotBook | None = None) -> None:
        self._link = debuggee
        self._debuggee_heap = DebuggeeHeap(debuggee) if debuggee is not None else None
        self._lock = threading.RLock()
        self._opened: Opened | None = None
        self._built: _Built | None = None
        self._snapshots = snapshots if snapshots is not None else SnapshotBook()

    # ---- ways in ---------------------------------------------------------------------

    def attach(self, pid: int, suspend: bool = False) -> HeapSource:
        """Read a live process's heap without a debugger; it keeps running (unless suspend:
        then it stays frozen until close)."""
        if pid < 1:
            raise InvalidParameterError(f"pid must be positive, got {pid}", pid=pid)
        return self._open(Opened(HeapReader.attach(pid, suspend=suspend), "process", pid=pid))

    def open_dump(self, path: str | Path, offline: bool | None = None, dac: str | Path | None = None) -> HeapSource:
        dump = Path(path).expanduser()
        reader = HeapReader.open_dump(dump, dac=dac, offline=offline)
        return self._open(Opened(reader, "dump", path=str(dump.resolve())))

    def _open(self, opened: Opened) -> HeapSource:
        with self._lock:
            self.close()
            self._opened = opened
            return self._describe(opened.kind, opened.reader.description, opened.pid, opened.path, time.monotonic())

    def create_dump(self, pid: int | None, path: str) -> DumpCreateAnswer:
        """A full-heap dump of pid (default: the opened process, else the debuggee), its
        runtime's DAC kept beside it."""
        target = pid if pid is not None else self._default_pid()
        if target < 1:
            raise InvalidParameterError(f"pid must be positive, got {target}", pid=target)
        from pyinspect.session.dump_writing import write_dump  # and the heap answers' models

        return write_dump(target, new_dump_file(path))

    def _default_pid(self) -> int:
        with self._lock:
            if self._opened is not None and self._opened.pid is not None:
                return self._opened.pid
        pid = self._link.pid() if self._link is not None else None
        if pid is None:
            raise InvalidParameterError("pid is required: no process is open (heap_attach) or debugged")
        return pid

    def close(self) -> bool:
        """Close the heap opened on its own (the debug session's, if any, is read next)."""
        with self._lock:
            opened, self._opened = self._opened, None
            if opened is not None and self._built is not None and self._built.key[0] is opened.reader:
                self._built = None
        if opened is not None:
            opened.reader.close()
        return opened is not None

    def debuggee_ended(self) -> None:
        """The debug session ended: its process's reader closes (a heap opened on its own stays)."""
        if self._debuggee_heap is not None:
            self._debuggee_heap.close()

    def close_all(self) -> None:
        """Close every heap this workspace holds: the session is ending."""
        self.close()
        self.debuggee_ended()

    def flush(self) -> None:
        """Forget the graph and the opened heap's cached memory: the live process ran since."""
        with self._lock:
            self._built = None
            if self._opened is not None:
                self._opened.reader.flush()

    # ---- the graph -------------------------------------------------------------------

    def graph_bytes(self) -> int:
        """Bytes the built graph's arrays hold (0 with none): what keeping this heap open costs.
        Read without the lock (one reference read), so a walk in progress never delays it."""
        built = self._built
        return built.array_bytes if built is not None else 0

    def graph_ready(self) -> bool:
        """Whether graph() answers without a walk (one is built for the current source)."""
        with self._lock:
            if self._built is None:
                return False
            if self._opened is not None:
                return self._built.key == _opened_key(self._opened)
            return self._link is not None and self._built.key[1:] == (self._link.state.epoch,)

    def graph(self, progress: ProgressCallback | None = None, fresh: bool = False, work_folder: str | None = None,
              memory_limit: int = 0) -> tuple[HeapGraph, HeapSource]:
        """The current source's graph (built when missing, stale or ``fresh``) and its source; a
        build's arrays go to files in work_folder when they would not fit in memory_limit bytes."""
        with self._lock:
            reader, key, kind, pid, path = self._current()
            built = self._built
            if fresh or built is None or built.key != key:
                if fresh and kind == "process":
                    reader.flush()
                self._built = None
                made = reader.graph(progress, work_folder, memory_limit)
                built = self._built = _Built(made, key, time.monotonic(), made.array_bytes())
            return built.graph, self._describe(kind, reader.description, pid, path, built.built_at)

    def _current(self) -> tuple[HeapReader, tuple[Any, ...], SourceKind, int | None, str | None]:
        if self._opened is not None:
            o = self._opened
            return o.reader, _opened_key(o), o.kind, o.pid, o.path
        link, debuggee_heap = self._link, self._debuggee_heap
        if link is None or debuggee_heap is None:
            raise NoHeapError("no heap to read: open a process's heap or a dump first")
        try:
            link.require_paused()
        except NoSessionError as exc:
            raise NoHeapError("no heap to read: call heap_attach {pid} (a running process) or dump_open {path}, "
                              "or pause a debug session (debug_launch/debug_attach, then a breakpoint or "
                              "debug_pause)") from exc
        except NotPausedError as exc:
            raise NotPausedError(f"{exc.message}; or read its heap without stopping it: heap_attach") from exc
        reader = debuggee_heap.reader()
        return reader, (reader, link.state.epoch), "debug_session", link.pid(), None

    def debuggee_reader(self) -> HeapReader:
        """The paused-or-not debuggee's reader (memory questions on one object), flushed if it ran."""
        if self._debuggee_heap is None:
            raise NoSessionError("no debug session: call debug_launch or debug_attach first")
        return self._debuggee_heap.reader()

    @staticmethod
    def _describe(kind: SourceKind, description: str, pid: int | None, path: str | None,
                  built_at: float) -> HeapSource:
        age = round(max(0.0, time.monotonic() - built_at), 3)
        warning = None
        if kind == "process":
            warning = (f"process {pid} keeps running: this is its heap as read {age:.1f} s ago and may have "
                       "changed since; heap_snapshot reads it afresh")
        what = "the paused debuggee, " + description if kind == "debug_session" else description
        return HeapSource(kind=kind, description=what, pid=pid, path=path, snapshot_age_seconds=age,
                          may_have_changed=kind == "process", warning=warning)

    def name_stack_locals(self, paths: RetentionPaths) -> RetentionPaths:
        """Stack roots named by the local holding them when the graph is the paused debug
        session's at this stop; a heap opened on its own cannot name them (left None)."""
        with self._lock:
            built, link = self._built, self._link
            if self._opened is not None or built is None or len(built.key) != 2 or link is None:
                return paths
            epoch = built.key[1]
        # the graph's models come with it: loaded once a graph was built, not by a one-shot command
        from pyinspect.session.stack_names import name_at_stop

        return name_at_stop(paths, link.client(), lambda: link.state.epoch == epoch)

    def reader(self) -> tuple[HeapReader, HeapSource]:
        """The current source's reader (for single objects: no graph needed)."""
        with self._lock:
            reader, _, kind, pid, path = self._current()
            return reader, self._describe(kind, reader.description, pid, path, time.monotonic())

    # ---- snapshots -------------------------------------------------------------------

    def snapshot(self, progress: ProgressCallback | None = None) -> Taken:
        """A fresh graph's live heap per type, kept under a new id (s1, s2...) for heap_diff."""
        with self._lock:
            graph, source = self.graph(progress, fresh=True)
            taken = graph.snapshot()
            return self._snapshots.add(taken, source), taken, source

    def snapshot_ids(self) -> tuple[str, ...]:
        return self._snapshots.ids()

    def pair(self, before: str | None, after: str | None) -> tuple[Taken, Taken]:
        """The two snapshots to diff; by default the last two taken."""
        return self._snapshots.pair(before, after)

    def taken(self, snapshot_id: str | None, role: str) -> Taken:
        """One snapshot by id (default: the last taken), to diff against another heap's."""
        return self._snapshots.taken(snapshot_id, role)

    def resolve_address(self, expression: str, thread_id: int | None = None, frame_index: int = 0) -> int:
        """An expression's object address in the paused debuggee (its heap must be the source);
        a null or a value type is refused (it has no heap address)."""
        with self._lock:
            if self._opened is not None:
                raise InvalidParameterError("an expression is read in the paused debug session, but the heap tools "
                                            f"read {self._opened.reader.description}: give an address, or heap_close")
        if self._link is None:
            raise NoHeapError("an expression needs a paused debug session; give an address instead")
        try:
            self._link.require_paused()
            value = self._link.resolve(expression, thread_id, frame_index)
        except NoSessionError as exc:
            raise NoHeapError("an expression needs a paused debug session; give an address instead") from exc
        if value.address is None:
            raise InvalidParameterError(f"'{expression}' is {'null' if value.is_null else 'a value type'}: "
                                        "it has no heap address", expression=expression)
        return value.address
