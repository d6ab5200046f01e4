"""Heap graph records: a snapshot's types, retained sizes, retention paths and layout.

Same conventions as :mod:`pyinspect.models.heap`: frozen, camelCase wire names,
addresses as ``0x...`` strings, sizes in bytes as ClrMD reports them.
"""

from __future__ import annotations

from pydantic import Field

from pyinspect.models.wire import WireModel

__all__ = [
    "DuplicateString", "FinalizerStat", "GenerationStat", "GraphSummary", "GraphTypeStat",
    "HeapLayout", "Instance", "PathRoot", "PathStep", "RetainedObject", "RetentionPath",
    "RetentionPaths", "SegmentStat", "TypeDelta", "WastedCapacity",
]


class GraphSummary(WireModel):
    """What a snapshot holds, and what it could not read (those make answers incomplete)."""

    objects: int
    edges: int
    roots: int
    live_objects: int
    live_bytes: int
    dead_objects: int
    dead_bytes: int
    unreadable_objects: int
    unresolved_references: int
    types: int
    skipped_threads: int = 0
    work_folder: str | None = None


class GraphTypeStat(WireModel):
    """One type: count and size (of all, live or dead objects), live part, retained bytes."""

    type: str
    count: int
    total_size: int
    retained_size: int
    live_count: int
    live_size: int


class RetainedObject(WireModel):
    """One object, what it retains, and its immediate dominator ("root" for the super-root)."""

    address: str
    type: str
    size: int
    retained_size: int
    live: bool
    generation: int
    dominator: str | None = None


class PathRoot(WireModel):
    """Where a path starts. A stack root's ``name`` is its thread and frame (method);
    ``local`` names the frame's local or argument holding the object, known only from a
    paused debug session (the heap alone gives the slot, not its name), else None."""

    kind: str
    name: str
    thread: int | None = None
    local: str | None = None


class PathStep(WireModel):
    """An object on the path; ``field`` is the previous object's field (or ``[i]``) holding it."""

    address: str
    type: str
    field: str | None = None


class RetentionPath(WireModel):
    root: PathRoot
    steps: tuple[PathStep, ...]


class RetentionPaths(WireModel):
    """Shortest paths from roots; ``reachable`` False only means unreachable when ``complete``."""

    address: str
    type: str
    complete: bool
    reachable: bool
    stopped_reason: str | None = None
    paths: tuple[RetentionPath, ...] = Field(default_factory=tuple)


class Instance(WireModel):
    address: str
    type: str
    size: int
    generation: int
    live: bool
    retained_size: int


class DuplicateString(WireModel):
    value: str
    count: int
    size: int
    wasted_bytes: int


class WastedCapacity(WireModel):
    """Collections of one type under one owner (the first non-collection object dominating
    them) whose storage arrays hold unused slots: capacity and used slots summed."""

    type: str
    owner: str
    collections: int
    capacity: int
    used: int
    wasted_bytes: int
    example: str
    example_wasted_bytes: int


class SegmentStat(WireModel):
    kind: str
    start: str
    end: str
    size: int
    committed: int
    object_bytes: int
    free_bytes: int
    object_count: int
    pinned_objects: int = 0


class GenerationStat(WireModel):
    generation: str
    size: int
    free_bytes: int
    fragmentation: float
    object_count: int
    pinned_objects: int


class HeapLayout(WireModel):
    generations: tuple[GenerationStat, ...]
    segments: tuple[SegmentStat, ...]


class FinalizerStat(WireModel):
    type: str
    count: int
    total_size: int
    ready: int


class TypeDelta(WireModel):
    """One type's change between two snapshots (b minus a)."""

    type: str
    count_delta: int
    size_delta: int
    retained_delta: int
