"""GC pressure from a recording of the runtime's events over a window: collections induced by
GC.Collect, gen-2 collections, time paused in GC, and collections for large objects; with the
types allocated most and the code allocating them (the recording's sampled stacks)."""

from __future__ import annotations

from pyinspect.models.diagnosis import (
    Evidence,
    EvidenceFrame,
    EvidenceObject,
    EvidenceType,
    Finding,
    Thresholds,
)
from pyinspect.models.trace import TraceAnswer
from pyinspect.session.diagnosis.evidence import megabytes
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["fragmentation", "gc_pressure"]

_SMALL_OBJECT_SEGMENTS = ("Generation0", "Generation1", "Generation2", "Ephemeral")
_SEGMENTS_SHOWN = 3

_SHOWN = 3
_SHARE_SHOWN = 0.1  # a type allocated at a tenth of the top one's rate or more
_AT_LEAST = 3  # collections of a kind before a rate means anything (a window's one gen-2 does not)


def _figures(recording: TraceAnswer) -> dict[str, float]:
    window = max(recording.window_seconds, 0.001)
    gcs = recording.gcs
    induced = sum(1 for g in gcs if g.reason.startswith("Induced"))
    return {"windowSeconds": round(window, 3), "gcs": float(len(gcs)), "induced": float(induced),
            "gen2": float(sum(1 for g in gcs if g.generation >= 2 and not g.reason.startswith("Induced"))),
            "largeObjectGcs": float(sum(1 for g in gcs if g.reason == "AllocLarge")),
            "pausedMs": round(sum(g.pause_ms for g in gcs), 1),
            "pauseShare": round(sum(g.pause_ms for g in gcs) / 1000 / window, 4)}


def gc_pressure(seen: Observations, limits: Thresholds) -> list[Finding]:
    if seen.recording is None:
        return []
    figures = _figures(seen.recording)
    window = figures["windowSeconds"]
    reasons = []
    if figures["induced"] >= max(_AT_LEAST, limits.gc_induced_per_second * window):
        reasons.append(f"{figures['induced']:.0f} induced by GC.Collect")
    if figures["gen2"] >= max(_AT_LEAST, limits.gc_gen2_per_second * window):
        reasons.append(f"{figures['gen2']:.0f} gen-2 collections")
    if figures["pauseShare"] >= limits.gc_pause_share:
        reasons.append(f"{figures['pauseShare']:.0%} of the window paused")
    if not reasons:
        return []
    rows = seen.recording.allocations
    top = [r for r in rows[:_SHOWN] if r.estimated_bytes >= _SHARE_SHOWN * rows[0].estimated_bytes]
    methods = [EvidenceFrame(method=s.method) for row in top for s in row.top_stacks[:1] if s.method]
    allocating = "; most allocated: " + ", ".join(
        f"{row.type} ~{row.estimated_bytes / (1 << 20) / window:.1f} MiB/s"
        + (f" from {row.top_stacks[0].method}" if row.top_stacks and row.top_stacks[0].method else "")
        for row in top[:2]) if top else ""
    return [Finding(
        kind="gc-pressure", severity="warning", confidence="high",
        statement=(f"GC pressure: {figures['gcs']:.0f} collections in {window:.1f} s ({', '.join(reasons)}; "
                   f"{figures['pausedMs']:.0f} ms paused, {figures['largeObjectGcs']:.0f} for large objects)"
                   + allocating),
        evidence=Evidence(types=tuple(EvidenceType(type=r.type, count=r.estimated_count, size=r.estimated_bytes)
                                      for r in top),
                          methods=tuple(methods), measures=figures),
        next_calls=("trace_start", "trace_stop", "heap_segments"))]


def fragmentation(seen: Observations, limits: Thresholds) -> list[Finding]:
    """Free space the GC cannot compact away because pinned objects sit among it: the
    small-object segments (regions) that hold pinned objects (pinned handles and other pinned
    roots) and are at least fragmentation_share free, when their free bytes sum to
    fragmentation_bytes. The pins and the free space in the same
    segments are read; that the pins cause it is inferred (a compacting GC would slide the
    survivors together otherwise): medium confidence."""
    pinned = [s for s in seen.graph.layout().segments
              if s.kind in _SMALL_OBJECT_SEGMENTS and s.pinned_objects > 0
              and s.free_bytes >= limits.fragmentation_share * max(s.size, 1)]
    free, size = sum(s.free_bytes for s in pinned), sum(s.size for s in pinned)
    if not pinned or free < limits.fragmentation_bytes:
        return []
    pins = sum(s.pinned_objects for s in pinned)
    worst = sorted(pinned, key=lambda s: s.free_bytes, reverse=True)[:_SEGMENTS_SHOWN]
    return [Finding(
        kind="fragmentation", severity="warning", confidence="medium",
        statement=(f"fragmentation by pinning: {megabytes(free)} free ({free / size:.0%}) in {len(pinned)} "
                   f"small-object segments holding {pins} pinned objects; the GC cannot compact around the pins "
                   "(pinned GCHandles or fixed buffers: pin briefly, or allocate long-lived buffers on the pinned "
                   "object heap)"),
        evidence=Evidence(objects=tuple(EvidenceObject(address=s.start, type=f"segment {s.kind}", size=s.size,
                                                       role=f"{s.pinned_objects} pinned objects, {s.free_bytes:,} "
                                                            "bytes free") for s in worst),
                          measures={"freeBytes": float(free), "segmentBytes": float(size), "pinnedObjects": float(pins),
                                    "segments": float(len(pinned)), "freeShare": round(free / size, 4)}),
        next_calls=("heap_segments", "heap_stats"))]
