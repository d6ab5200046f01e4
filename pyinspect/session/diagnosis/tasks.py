"""Async work that can never finish: a chain whose innermost await is a task nothing outside
the chain holds. Every path from a root to that task passes through the chain's own state
machines (one of them dominates it), so no code can reach its completion source to complete
it. A task a static, a timer or a cancellation registration holds may still complete: not this."""

from __future__ import annotations

from pyinspect.heap.graph import HeapGraph
from pyinspect.models.diagnosis import Evidence, EvidenceFrame, EvidenceObject, Finding, Thresholds
from pyinspect.models.triage import AsyncChain
from pyinspect.session.diagnosis.evidence import where
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["never_completes"]

_COMPLETED = ("RanToCompletion", "Faulted", "Canceled")
_MAX_UP = 8


def never_completes(seen: Observations, limits: Thresholds) -> list[Finding]:
    waiting = [c for c in seen.chains.chains if c.chain and c.chain[0].awaits is not None
               and (c.chain[0].awaits_status or "") not in _COMPLETED]
    if not waiting:
        return []
    held = _held_only_by_chain(seen.graph, waiting)
    return [_finding(chain) for chain, only in zip(waiting, held, strict=True) if only]


def _held_only_by_chain(graph: HeapGraph, chains: list[AsyncChain]) -> list[bool]:
    """Per chain, whether one of its live boxes dominates its awaited task: the dominator tree
    is climbed for every chain at once, one crossing per level."""
    boxes = [{f.address for f in chain.chain} for chain in chains]
    alive = {o.address: o.live for o in graph.retained([chain.chain[0].address for chain in chains])}
    answer = [False] * len(chains)
    climbing = {i: chain.chain[0].awaits or "" for i, chain in enumerate(chains) if alive.get(chain.chain[0].address)}
    for _ in range(_MAX_UP):
        if not climbing:
            break
        dominators = {o.address: o.dominator for o in graph.retained(sorted(set(climbing.values())))}
        next_level = {}
        for i, address in climbing.items():
            dominator = dominators.get(address)
            if dominator in boxes[i]:
                answer[i] = True
            elif dominator is not None and dominator != "root":
                next_level[i] = dominator
        climbing = next_level
    return answer


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
