"""HeapWorkspace: which heap the heap tools read, the graph built from it, and the
snapshots taken so far.

Three ways in, one set of questions: a heap opened on its own (``attach``: a live
process that keeps running; ``open_dump``: a core dump), else the paused debug
session's process. The graph is built once per source and reused: a dump never
changes; the debug session's is rebuilt after the process ran (its stop epoch moved);
a live process's is reused, and every answer says it may have changed since
(``snapshot`` reads it afresh). Snapshots outlive their source, so two dumps diff too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyinspect.answers.dump_writing import write_dump
from pyinspect.answers.stack_names import name_at_stop
from pyinspect.errors import (
    InvalidParameterError,
    NoHeapError,
    NoSessionError,
    NotPausedError,
    UnknownSnapshotError,
)
from pyinspect.heap.graph import HeapGraph
from pyinspect.heap.reader import HeapReader, ProgressCallback
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.heap_answers import DumpCreateAnswer, HeapSource, SourceKind
from pyinspect.models.heapgraph import RetentionPaths
from pyinspect.session.debug_session import Session

__all__ = ["MAX_SNAPSHOTS", "BuildCancelled", "HeapWorkspace", "Taken", "object_address"]

MAX_SNAPSHOTS = 32
Taken = tuple[str, Snapshot, HeapSource]
"""A snapshot's id, the snapshot, and the heap it was taken of."""


def _new_file(path: str) -> Path:
    """A dump is written only as a new file at an absolute path in an existing folder."""
    out = Path(path).expanduser()
    if not path.strip() or "\x00" in path or not out.is_absolute():
        raise InvalidParameterError(f"path must be an absolute path for the new dump file, got {path[:200]!r}")
    if out.exists():
        raise InvalidParameterError(f"{out} exists already: dump_create writes a new file only", path=str(out))
    if not out.parent.is_dir():
        raise InvalidParameterError(f"no folder {out.parent} to write the dump in", path=str(out))
    return out


def object_address(session: Session, expression: str, thread_id: int | None = None, frame_index: int = 0) -> int:
    """The address of the object an expression names in the paused debuggee; a null or a
    value type is refused (it has no heap address)."""
    session.require_paused()
    value = session.resolve_value(expression, thread_id, frame_index)
    if value.address is None:
        raise InvalidParameterError(f"'{expression}' is {'null' if value.is_null else 'a value type'}: "
                                    "it has no heap address", expression=expression)
    return value.address


class BuildCancelled(Exception):
    """The caller withdrew the request while the graph was being built."""


@dataclass
class _Opened:
    """A heap opened for the heap tools alone (no debugger)."""

    reader: HeapReader
    kind: SourceKind
    pid: int | None = None
    path: str | None = None


@dataclass
class _Built:
    graph: HeapGraph
    key: tuple[Any, ...]
    built_at: float


class HeapWorkspace:
    """Thread-safe: MCP tools call it from worker threads; one graph is built at a time."""

    def __init__(self, debug_session: Callable[[], Session]) -> None:
        self._debug_session = debug_session
        self._lock = threading.RLock()
        self._opened: _Opened | None = None
        self._built: _Built | None = None
        self._snapshots: dict[str, tuple[Snapshot, HeapSource]] = {}
        self._next_snapshot = 1

    # ---- ways in ---------------------------------------------------------------------

    def attach(self, pid: int) -> HeapSource:
        """Read a live process's heap without a debugger; it keeps running."""
        if pid < 1:
            raise InvalidParameterError(f"pid must be positive, got {pid}", pid=pid)
        return self._open(_Opened(HeapReader.attach(pid, suspend=False), "process", pid=pid))

    def open_dump(self, path: str, offline: bool | None = None) -> HeapSource:
        dump = Path(path).expanduser()
        return self._open(_Opened(HeapReader.open_dump(dump, offline=offline), "dump", path=str(dump.resolve())))

    def _open(self, opened: _Opened) -> HeapSource:
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
        return write_dump(target, _new_file(path))

    def _default_pid(self) -> int:
        with self._lock:
            if self._opened is not None and self._opened.pid is not None:
                return self._opened.pid
        pid = self._debug_session().debuggee_pid()
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

    # ---- the graph -------------------------------------------------------------------

    def graph(self, progress: ProgressCallback | None = None, fresh: bool = False) -> tuple[HeapGraph, HeapSource]:
        """The current source's graph (built when missing, stale or ``fresh``) and its source."""
        with self._lock:
            reader, key, kind, pid, path = self._current()
            built = self._built
            if fresh or built is None or built.key != key:
                if fresh and kind == "process":
                    reader.flush()
                self._built = None
                built = self._built = _Built(reader.graph(progress), key, time.monotonic())
            return built.graph, self._describe(kind, reader.description, pid, path, built.built_at)

    def _current(self) -> tuple[HeapReader, tuple[Any, ...], SourceKind, int | None, str | None]:
        if self._opened is not None:
            o = self._opened
            # a dump reader that a damaged dump ended starts again: its graph is built again
            return o.reader, (o.reader, o.reader.generation, "opened"), o.kind, o.pid, o.path
        session = self._debug_session()
        try:
            session.require_paused()
        except NoSessionError as exc:
            raise NoHeapError("no heap to read: call heap_attach {pid} (a running process) or dump_open {path}, "
                              "or pause a debug session (debug_launch/debug_attach, then a breakpoint or "
                              "debug_pause)") from exc
        except NotPausedError as exc:
            raise NotPausedError(f"{exc.message}; or read its heap without stopping it: heap_attach") from exc
        reader = session.heap()
        return reader, (reader, session.debuggee.epoch), "debug_session", session.debuggee_pid(), None

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
            built = self._built
            if self._opened is not None or built is None or len(built.key) != 2:
                return paths
            epoch = built.key[1]
        session = self._debug_session()
        return name_at_stop(paths, session.client, lambda: session.debuggee.epoch == epoch)

    def reader(self) -> tuple[HeapReader, HeapSource]:
        """The current source's reader (for single objects: no graph needed)."""
        with self._lock:
            reader, _, kind, pid, path = self._current()
            return reader, self._describe(kind, reader.description, pid, path, time.monotonic())

    # ---- snapshots -------------------------------------------------------------------

    def snapshot(self, progress: ProgressCallback | None = None) -> tuple[str, Snapshot, HeapSource]:
        """A fresh graph's live heap per type, kept under a new id (s1, s2...) for heap_diff."""
        with self._lock:
            graph, source = self.graph(progress, fresh=True)
            taken = graph.snapshot()
            snapshot_id = f"s{self._next_snapshot}"
            self._next_snapshot += 1
            self._snapshots[snapshot_id] = (taken, source)
            while len(self._snapshots) > MAX_SNAPSHOTS:
                del self._snapshots[next(iter(self._snapshots))]
            return snapshot_id, taken, source

    def snapshot_ids(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._snapshots)

    def pair(self, before: str | None, after: str | None) -> tuple[Taken, Taken]:
        """The two snapshots to diff; by default the last two taken."""
        with self._lock:
            ids = list(self._snapshots)
            if before is None and after is None and len(ids) < 2:
                raise UnknownSnapshotError(f"heap_diff needs two snapshots; {len(ids)} taken so far: call "
                                           "heap_snapshot, exercise the program, heap_snapshot again")
            if after is None and ids:
                after = ids[-1]
            if before is None and after in ids and ids.index(after) > 0:
                before = ids[ids.index(after) - 1]
            return self._named(before, "before"), self._named(after, "after")

    def _named(self, snapshot_id: str | None, role: str) -> Taken:
        if snapshot_id is None or snapshot_id not in self._snapshots:
            known = ", ".join(self._snapshots) or "none yet"
            raise UnknownSnapshotError(f"no heap snapshot {snapshot_id!r} ({role}); the snapshots are: {known}",
                                       snapshot=snapshot_id)
        return (snapshot_id, *self._snapshots[snapshot_id])

    def resolve_address(self, expression: str) -> int:
        """An expression's object address in the paused debuggee (its heap must be the source)."""
        with self._lock:
            if self._opened is not None:
                raise InvalidParameterError("an expression is read in the paused debug session, but the heap tools "
                                            f"read {self._opened.reader.description}: give an address, or heap_close")
        try:
            return object_address(self._debug_session(), expression)
        except NoSessionError as exc:
            raise NoHeapError("an expression needs a paused debug session; give an address instead") from exc
