"""GC pressure from a recording of the runtime's events over a window: collections induced by
GC.Collect, gen-2 collections, time paused in GC, and collections for large objects; with the
types allocated most and the code allocating them (the recording's sampled stacks)."""

from __future__ import annotations

from pyinspect.models.diagnosis import Evidence, EvidenceFrame, EvidenceType, Finding, Thresholds
from pyinspect.models.trace import TraceAnswer
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["gc_pressure"]

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
