"""The diagnosis: every rule over one target's observations, findings ranked by severity,
then by kind (the closed list's order: the more specific cause first), then by size."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from pydantic import ValidationError

from pyinspect.errors import HeapReadError, InvalidParameterError, PyInspectError
from pyinspect.heap.graph import HeapGraph
from pyinspect.heap.reader import HeapReader
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.diagnosis import FINDING_KINDS, SEVERITIES, Diagnosis, Finding, Thresholds
from pyinspect.models.trace import TraceAnswer
from pyinspect.session.diagnosis import crash, growth, hangs, memory, pressure, tasks
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["GC_IN_PROGRESS", "RULES", "diagnose", "parse_thresholds"]

GC_IN_PROGRESS = "GC is in progress"
"""How the heap helper says a live process was caught mid-GC (its heap cannot be walked then)."""

Rule = Callable[[Observations, Thresholds], list[Finding]]
RULES: dict[str, Rule] = {
    "crash": crash.killing_exception,
    "deadlock": hangs.deadlocks,
    "thread-pool-starvation": hangs.starvation,
    "finalizer-blocked": hangs.finalizer_blocked,
    "async-never-completes": tasks.never_completes,
    "lock-convoy": hangs.convoys,
    "gc-pressure": pressure.gc_pressure,
    "fragmentation": pressure.fragmentation,
    "memory-growth": growth.memory_growth,
    "duplicate-strings": memory.duplicate_strings,
    "wasted-capacity": memory.wasted_capacity,
    "retained-memory": memory.retained_memory,
}
assert tuple(RULES) == FINDING_KINDS, "one rule per kind of the closed list, in its order"


def parse_thresholds(values: Mapping[str, object] | None) -> Thresholds:
    """Thresholds from names (snake_case or camelCase) to values; the rest keep their defaults.
    An unknown name or a value out of range is INVALID_PARAMETER."""
    try:
        return Thresholds.model_validate(dict(values or {}))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        known = ", ".join(Thresholds.model_fields)
        raise InvalidParameterError(f"bad thresholds ({problems}); the thresholds are: {known}") from None


def diagnose(reader: HeapReader, build_graph: Callable[[], HeapGraph], *, from_dump: bool,
             thresholds: Thresholds | None = None, baseline: Snapshot | None = None,
             recording: TraceAnswer | None = None) -> Diagnosis:
    """Every rule over the target: a crash is looked for in a dump only (a live process has
    not crashed), growth only against a baseline snapshot, GC pressure only from a recording; the graph is built once, for the
    rules that need it."""
    limits = thresholds or Thresholds()
    started = time.monotonic()
    seen = Observations(reader, build_graph, from_dump, baseline, recording)
    findings: list[Finding] = []
    checked, unchecked = [], {}
    for kind, rule in RULES.items():
        if kind == "crash" and not from_dump:
            unchecked[kind] = "a live process has not crashed: a crash is read from the dump its runtime wrote"
            continue
        if kind == "memory-growth" and baseline is None:
            unchecked[kind] = "no baseline snapshot to compare with (heap snapshot of the same process earlier)"
            continue
        if kind == "gc-pressure" and recording is None:
            unchecked[kind] = "no recording of the process's GCs (record_seconds, on a running process)"
            continue
        try:
            findings.extend(rule(seen, limits))
        except PyInspectError as exc:
            if _gc_in_progress(exc):
                raise  # the whole read is retried (targets.diagnose_process)
            unchecked[kind] = f"{exc.code}: {exc}"  # this kind could not be read; the others still answer
            continue
        checked.append(kind)
    findings.sort(key=_rank)
    return Diagnosis(findings=tuple(findings), checked=tuple(checked), unchecked=unchecked, thresholds=limits,
                     seconds=round(time.monotonic() - started, 3))


def _gc_in_progress(exc: PyInspectError) -> bool:
    return isinstance(exc, HeapReadError) and GC_IN_PROGRESS in str(exc)


def _rank(finding: Finding) -> tuple[int, int, float]:
    measures = finding.evidence.measures
    size = measures.get("retainedBytes", measures.get("wastedBytes", measures.get("grownBytes", 0.0)))
    return SEVERITIES.index(finding.severity), FINDING_KINDS.index(finding.kind), -size
