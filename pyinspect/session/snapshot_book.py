"""SnapshotBook: the heap snapshots taken so far (s1, s2...), kept for heap_diff.

Why a book of its own: snapshots outlive the heap they were taken of, and one client may read
several heaps in turn (two dumps, a dump and a process). A client that names no heap (stdio,
an MCP session) has one book shared by every heap it opens, so ``heap_diff`` with no ids diffs
the last two snapshots whichever heap each came from, as when one heap replaced the other.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from pyinspect.errors import UnknownSnapshotError
from pyinspect.models.heap_source import HeapSource

if TYPE_CHECKING:  # a snapshot comes from a built graph: a one-shot command builds none
    from pyinspect.heap.snapshot import Snapshot

__all__ = ["MAX_SNAPSHOTS", "SnapshotBook", "Taken"]

MAX_SNAPSHOTS = 32
Taken = tuple[str, "Snapshot", HeapSource]
"""A snapshot's id, the snapshot, and the heap it was taken of."""


class SnapshotBook:
    """Thread-safe: the workspaces sharing a book add to it from their own worker threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshots: dict[str, tuple[Snapshot, HeapSource]] = {}
        self._next = 1

    def add(self, taken: Snapshot, source: HeapSource) -> str:
        """Keep a snapshot under a new id; past MAX_SNAPSHOTS the oldest is forgotten."""
        with self._lock:
            snapshot_id = f"s{self._next}"
            self._next += 1
            self._snapshots[snapshot_id] = (taken, source)
            while len(self._snapshots) > MAX_SNAPSHOTS:
                del self._snapshots[next(iter(self._snapshots))]
            return snapshot_id

    def ids(self) -> tuple[str, ...]:
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

    def taken(self, snapshot_id: str | None, role: str) -> Taken:
        """One snapshot by id (default: the last taken), to diff against another heap's."""
        with self._lock:
            last = next(reversed(self._snapshots), None)
            return self._named(snapshot_id if snapshot_id is not None else last, role)

    def _named(self, snapshot_id: str | None, role: str) -> Taken:
        if snapshot_id is None or snapshot_id not in self._snapshots:
            known = ", ".join(self._snapshots) or "none yet"
            raise UnknownSnapshotError(f"no heap snapshot {snapshot_id!r} ({role}); the snapshots are: {known}",
                                       snapshot=snapshot_id)
        return (snapshot_id, *self._snapshots[snapshot_id])
