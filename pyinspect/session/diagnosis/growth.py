"""Memory growth against a baseline snapshot (the live heap per type, taken earlier of the
same process): the types that grew, and the root that keeps the growing objects. The holder's
path is read for the growing type whose retained size grew most among those whose count grew:
the objects being added, each retaining what it brought (an Order and its lines), rather than
their parts (the byte[] of each), whose instances include everyone else's too. A type whose
count grew by under 1% of the largest count growth is a container that grew (a List's new,
larger array retains every element), not the objects being added. With a recording
of the window, the code allocating the growing types (its sampled stacks)."""

from __future__ import annotations

from pyinspect.heap.snapshot import diff
from pyinspect.models.diagnosis import (
    Evidence,
    EvidenceFrame,
    EvidenceObject,
    EvidenceType,
    Finding,
    Thresholds,
)
from pyinspect.models.heapgraph import RetentionPath, TypeDelta
from pyinspect.models.trace import AllocationRow
from pyinspect.session.diagnosis.evidence import LIBRARY_PREFIXES, megabytes, method_name
from pyinspect.session.diagnosis.memory import holder_of
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["allocating_methods", "memory_growth", "objects_being_added"]

_SHOWN = 5
_INSTANCES = 50


def memory_growth(seen: Observations, limits: Thresholds) -> list[Finding]:
    if seen.baseline is None:
        return []
    rows = [r for r in diff(seen.baseline, seen.graph.snapshot()) if r.size_delta > 0]
    grown = sum(r.size_delta for r in rows)
    if not rows or rows[0].size_delta < limits.growth_bytes:
        return []
    adding = objects_being_added(rows)
    path, address = _path_of_one(seen, adding)
    holder = f"; held by {holder_of(path)[1]}" if path else ""
    shown = ", ".join(f"{r.type} +{r.count_delta:,} (+{megabytes(r.size_delta)})" for r in rows[:3])
    objects = (EvidenceObject(address=address, type=adding.type, role="one of the growing objects"),) if address else ()
    methods = allocating_methods(seen.recording.allocations if seen.recording is not None else [],
                                 [adding.type, *(r.type for r in rows[:_SHOWN])])
    where = f"; allocated in {methods[0].method}" if methods else ""
    return [Finding(
        kind="memory-growth", severity="warning", confidence="high" if path else "medium",
        statement=f"the live heap grew by {megabytes(grown)} since the baseline: {shown}{holder}{where}",
        evidence=Evidence(types=tuple(EvidenceType(type=r.type, count=r.count_delta, size=r.size_delta,
                                                   retained_size=r.retained_delta) for r in rows[:_SHOWN]),
                          objects=objects, path=path, methods=methods,
                          measures={"grownBytes": float(grown), "topTypeGrownBytes": float(rows[0].size_delta)}),
        next_calls=("heap_diff", f"heap_instances {{\"type_name\": \"{adding.type}\"}}")
        + ((f"heap_retention {{\"address\": \"{address}\"}}",) if address else ()))]


def objects_being_added(rows: list[TypeDelta]) -> TypeDelta:
    """Of the grown types (rows not empty), the one being added: the largest retained growth
    among the types whose count grew by at least 1% of the largest count growth."""
    most_added = max((r.count_delta for r in rows), default=0)
    added = [r for r in rows if r.count_delta > 0 and r.count_delta * 100 >= most_added]
    return max(added, key=lambda r: r.retained_delta, default=rows[0])


def allocating_methods(allocations: list[AllocationRow], types: list[str]) -> tuple[EvidenceFrame, ...]:
    """The first frame of the program's code in the top sampled stack of each growing type
    the recording saw (estimates), the objects being added (types[0]) first. A small type
    may have no sample of its own (AllocationTick samples one object per ~100 KB, by bytes):
    then the code adding it is read from its parts' stacks, as the caller of its constructor."""
    by_type = {row.type: row for row in allocations}
    found: dict[str, EvidenceFrame] = {}
    for name in types:
        method = _top_method(by_type.get(name))
        if method is None and name == types[0]:
            method = _constructor_caller(allocations, name)
        if method is not None:
            found.setdefault(method, EvidenceFrame(method=method))
    return tuple(found.values())


def _top_method(row: AllocationRow | None) -> str | None:
    return row.top_stacks[0].method if row is not None and row.top_stacks else None


def _constructor_caller(allocations: list[AllocationRow], type_name: str) -> str | None:
    """The program's frame that called the type's constructor in the most sampled stack that
    passes through it: where its instances are allocated."""
    constructor = f"{type_name}..ctor"
    callers: dict[str, int] = {}
    for row in allocations:
        for stack in row.top_stacks:
            names = [method_name(f) for f in stack.frames]
            if constructor in names:
                caller = next((f for f in stack.frames[names.index(constructor) + 1:]
                               if not f.startswith(LIBRARY_PREFIXES)), None)
                if caller is not None:
                    callers[caller] = callers.get(caller, 0) + stack.samples
    return max(callers, key=lambda c: callers[c]) if callers else None


def _path_of_one(seen: Observations, row: TypeDelta) -> tuple[RetentionPath | None, str | None]:
    """The path from its root to one live instance of the type (the last of the first page)."""
    live = [i for i in seen.graph.instances(row.type, 0, _INSTANCES) if i.live]
    if not live:
        return None, None
    paths = seen.graph.paths(live[-1].address, 1)
    return (paths.paths[0] if paths.paths else None), live[-1].address
