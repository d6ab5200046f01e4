"""A recording of the runtime's event stream (EventPipe) as pyinspect answers it: bytes
allocated per type with their allocating stacks (estimates, with their sample counts),
every GC of the window, and the runtime's counters over time. camelCase on the wire,
as the recorder (dotnet/PyInspect.Trace) writes it."""

from __future__ import annotations

from pyinspect.models.wire import WireModel

__all__ = [
    "AllocationRow", "CounterSample", "GcRow", "ParseFigures", "Sampling", "StackRow", "TraceAnswer",
    "TraceStartAnswer",
]


class Sampling(WireModel):
    """What the window sampled. allocation_event is AllocationSampled (the runtime's
    randomized sampling, .NET 10+) or AllocationTick (~every 100 KB, older runtimes)."""

    allocation_event: str | None = None
    allocation_method: str | None = None
    gc: bool
    counters: bool
    allocation_samples: int


class StackRow(WireModel):
    """One allocating stack of a type: method is its first frame in user code, frames leaf
    first; share is this stack's part of the type's samples."""

    method: str | None = None
    frames: list[str]
    samples: int
    share: float
    estimated_bytes: int


class AllocationRow(WireModel):
    """Bytes and objects of one type allocated in the window: estimates from `samples` events."""

    type: str
    estimated_bytes: int
    estimated_count: int
    samples: int
    top_stacks: list[StackRow]


class GcRow(WireModel):
    """One GC: sizes in bytes per generation (gen0, gen1, gen2, loh, poh), times in ms from
    the start of the window; sizes_before is None when the runtime sent no heap history."""

    number: int
    generation: int
    reason: str
    kind: str
    start_ms: float
    pause_ms: float
    sizes_before: dict[str, int] | None = None
    sizes_after: dict[str, int]
    promoted_bytes: int


class CounterSample(WireModel):
    """One System.Runtime counter value (alloc-rate, time-in-gc, gen-0-size, ...) at seconds."""

    seconds: float
    name: str
    value: float
    unit: str


class ParseFigures(WireModel):
    """How many events the recorder parsed, from how big a file, how fast."""

    events: int
    file_bytes: int
    seconds: float
    events_per_second: float


class TraceAnswer(WireModel):
    """trace_stop's answer (and `pyinspect trace --json`): the window and its three tables."""

    pid: int
    runtime_version: str | None = None
    window_seconds: float
    target_exited: bool
    sampling: Sampling
    allocations: list[AllocationRow]
    gcs: list[GcRow]
    counters: list[CounterSample]
    parse: ParseFigures
    message: str | None = None


class TraceStartAnswer(WireModel):
    """trace_start's answer: the recording runs until trace_stop (or max_seconds)."""

    pid: int
    runtime_version: str | None = None
    allocations: bool
    gc: bool
    max_seconds: float
    message: str
