"""Long helper work advanced from Python in short calls: a heap walk in batches, then a heap
graph's phases after the walk (HeapGraphBuilder.Advance, dotnet/PyInspect.Heap/Graph/), each
call back within a fraction of a second, so the caller hears where the work is and may stop it.

Why this way: the same calls run in this process (a live target, pythonnet) and in the dump
reader process over its socket (heap.dump_child), which answers one call at a time; a build
stepped in short calls needs no second channel into either to be stopped. A phase after the walk
runs on in the helper between two calls (on a thread of its own there); when progress raises
BuildCancelled, the builder is told to Cancel: that phase stops at its next checkpoint (within
milliseconds), every array of the build is freed (unmapped; a work folder's files closed), and
BuildCancelled is raised again saying where the build stopped ("during the dominator pass").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pyinspect.errors import PyInspectError
from pyinspect.heap.helper_calls import Ref

if TYPE_CHECKING:
    from pyinspect.heap.reader import HeapReader

__all__ = ["BuildCancelled", "ProgressCallback", "advance_walk", "build_graph"]

_WALK_BATCH = 250_000
_PHASE_WAIT_MS = 100
"""How long one call waits for a phase after the walk: a cancel lands within about this."""


class BuildCancelled(Exception):
    """The caller withdrew the request while the heap was walked or its graph built; the
    message says where the work stopped."""


class ProgressCallback(Protocol):
    """Called as (walked_bytes, total_bytes) between a heap walk's batches, then as (total,
    total, phase) while a graph's phases after the walk run, ``phase`` naming the one under way
    ("the dominator pass"); raising BuildCancelled stops the work there."""

    def __call__(self, walked: int, total: int, phase: str | None = None, /) -> None: ...


def advance_walk(reader: HeapReader, walk: Ref, progress: ProgressCallback | None, command: str) -> int:
    """Step a walk to its end, telling progress between batches; its total bytes."""
    total = int(reader.get(walk, "TotalBytes"))
    while not reader.call(walk, "Step", _WALK_BATCH, command=command):
        if progress is not None:
            progress(int(reader.get(walk, "WalkedBytes")), total)
    return total


def build_graph(reader: HeapReader, builder: Ref, progress: ProgressCallback | None) -> tuple[Ref, int]:
    """The builder's walk, then its phases, to the graph (and the heap's total bytes). Stopped
    anywhere (BuildCancelled from progress, or any failure), the builder is cancelled, so its
    arrays are freed now, not when a later build happens to collect them."""
    total = 0
    try:
        total = advance_walk(reader, builder, progress, "graph")
        while not reader.call(builder, "Advance", _PHASE_WAIT_MS, command="graph"):
            if progress is not None:
                progress(total, total, str(reader.get(builder, "Phase")))
    except BaseException as exc:
        where = _cancel(reader, builder)
        if isinstance(exc, BuildCancelled) and total and where is not None:
            raise BuildCancelled(f"the heap walk had ended ({total:,} bytes); building the graph stopped "
                                 f"{where}") from None
        raise
    return reader.get(builder, "Graph"), total


def _cancel(reader: HeapReader, builder: Ref) -> str | None:
    """Cancel the build; where it stopped, or None when the helper cannot be asked (a dump
    reader that ended on a damaged dump took the build with it)."""
    try:
        return str(reader.call(builder, "Cancel", command="graph"))
    except PyInspectError:
        return None
