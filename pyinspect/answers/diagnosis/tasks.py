"""Async work that can never finish: a chain whose innermost await is a task nothing outside
the chain holds. Every path from a root to that task passes through the chain's own state
machines (one of them dominates it), so no code can reach its completion source to complete
it. A task a static, a timer or a cancellation registration holds may still complete: not this."""

from __future__ import annotations

from pyinspect.answers.diagnosis.evidence import where
from pyinspect.answers.diagnosis.observations import Observations
from pyinspect.heap.graph import HeapGraph
from pyinspect.models.diagnosis import Evidence, EvidenceFrame, EvidenceObject, Finding, Thresholds
from pyinspect.models.triage import AsyncChain

__all__ = ["never_completes"]

_COMPLETED = ("RanToCompletion", "Faulted", "Canceled")
_MAX_UP = 8


def never_completes(seen: Observations, limits: Thresholds) -> list[Finding]:
    found = []
    for chain in seen.chains.chains:
        inner = chain.chain[0] if chain.chain else None
        if inner is None or inner.awaits is None or (inner.awaits_status or "") in _COMPLETED:
            continue
        if _held_only_by_chain(seen.graph, inner.awaits, {f.address for f in chain.chain}):
            found.append(_finding(chain))
    return found


def _held_only_by_chain(graph: HeapGraph, task: str, boxes: set[str]) -> bool:
    """True when one of the chain's live boxes dominates the awaited task."""
    if not graph.retained(list(boxes)[:1])[0].live:
        return False  # garbage: nothing waits for it either
    address: str | None = task
    for _ in range(_MAX_UP):
        if address is None or address == "root":
            return False
        dominator = graph.retained([address])[0].dominator
        if dominator in boxes:
            return True
        address = dominator
    return False


def _finding(chain: AsyncChain) -> Finding:
    inner, outer = chain.chain[0], chain.chain[-1]
    frames = tuple(EvidenceFrame(method=f.method, file=f.file, line=f.line) for f in chain.chain)
    objects = (EvidenceObject(address=inner.awaits or "", type=inner.awaits_type or "",
                              role="the awaited task: nothing outside the chain holds it"),
               *(EvidenceObject(address=f.address, type=f.state_machine_type, role=f"state machine of {f.method}")
                 for f in chain.chain))
    return Finding(
        kind="async-never-completes", severity="error", confidence="high",
        statement=(f"async work that can never finish: {where(frames[0])} awaits {inner.awaits_type} {inner.awaits}, "
                   f"which nothing outside its chain holds, so no code can complete it; "
                   f"{len(chain.chain)} async methods wait on it up to {outer.method}"),
        evidence=Evidence(objects=objects, methods=frames),
        next_calls=("heap_async", f"heap_retention {{\"address\": \"{inner.awaits}\"}}"))
