"""What holds the memory: the largest retained owners with the root that keeps them (a
static field's collection or cache, an event's subscribers, a timer's state), and strings
stored many times over. Exact retained sizes from the heap graph's dominators."""

from __future__ import annotations

from pyinspect.models.diagnosis import Evidence, EvidenceObject, EvidenceType, Finding, Thresholds
from pyinspect.models.heapgraph import RetainedObject, RetentionPath, WastedCapacity
from pyinspect.session.diagnosis.evidence import megabytes
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["duplicate_strings", "holder_of", "retained_memory", "wasted_capacity"]

_TOP = 60
_MAX_FINDINGS = 3
_DESCEND_SHARE = 0.9
_TIMER = "System.Threading.TimerQueueTimer"
_SHARE_SHOWN = 0.01  # a type and owner holding a hundredth of the unused capacity or more


def retained_memory(seen: Observations, limits: Thresholds) -> list[Finding]:
    """Owners retaining at least the thresholds; a stack root's (a running method's working
    set, released when it returns) is info, a static's, handle's or timer's a warning."""
    graph, live = seen.graph, seen.summary.live_bytes
    least = max(limits.retained_bytes, int(limits.retained_share * live))
    if live < least:
        return []
    top = [o for o in graph.retained(None, _TOP) if o.live]
    by_address = {o.address: o for o in top}
    reported: list[set[str]] = []
    found: list[Finding] = []
    for candidate in top:
        if candidate.retained_size < least or len(found) >= _MAX_FINDINGS:
            break
        family = _ancestors(candidate, by_address) | {candidate.address}
        if any(family & seen_family for seen_family in reported):
            continue
        focus = _descend(candidate, top)
        reported.append(family | _ancestors(focus, by_address) | {focus.address})
        paths = graph.paths(focus.address, 1)
        if paths.paths:
            found.append(_finding(paths.paths[0], candidate, focus, live))
    return found


def _ancestors(obj: RetainedObject, by_address: dict[str, RetainedObject]) -> set[str]:
    found: set[str] = set()
    current = by_address.get(obj.dominator or "")
    while current is not None and current.address not in found:
        found.add(current.address)
        current = by_address.get(current.dominator or "")
    return found


def _descend(owner: RetainedObject, top: list[RetainedObject]) -> RetainedObject:
    """The deepest object it dominates that still retains nearly all of it: the collection's
    storage, the event's invocation list, the timer's state."""
    current = owner
    while True:
        child = next((o for o in top if o.dominator == current.address
                      and o.retained_size >= _DESCEND_SHARE * current.retained_size), None)
        if child is None:
            return current
        current = child


def holder_of(path: RetentionPath) -> tuple[str, str]:
    """What keeps the memory (timer, event, static, stack...) and its name."""
    if any(step.type.startswith(_TIMER) for step in path.steps):
        return "timer", f"a timer ({_TIMER}), reached from {path.root.kind} {path.root.name}"
    if any(step.field == "_invocationList" for step in path.steps):
        return "event", f"the subscribers of the event (delegate) in {path.root.kind} {path.root.name}"
    if path.root.kind == "static":
        return "static", f"static field {path.root.name}"
    return path.root.kind, f"{path.root.kind} root {path.root.name}"


def _finding(path: RetentionPath, owner: RetainedObject, focus: RetainedObject, live: int) -> Finding:
    """owner: the object that retains it all (nothing in the top list dominates it); focus:
    the deepest one holding nearly all of it; the path runs from the root to the focus."""
    holder, name = holder_of(path)
    steps = [s.address for s in path.steps]
    after = steps.index(owner.address) + 1 if owner.address in steps else 1
    through = " -> ".join(f"{s.field or '?'} ({s.type})" for s in path.steps[after:]) or "itself"
    share = owner.retained_size / live if live else 0.0
    objects = [EvidenceObject(address=owner.address, type=owner.type, role=f"held by {holder}", size=owner.size,
                              retained_size=owner.retained_size)]
    if focus.address != owner.address:
        objects.append(EvidenceObject(address=focus.address, type=focus.type, role="holds nearly all of it",
                                      size=focus.size, retained_size=focus.retained_size))
    return Finding(
        kind="retained-memory", severity="info" if holder == "stack" else "warning",
        confidence="medium" if holder != "stack" else "low",
        statement=(f"{name}: {megabytes(owner.retained_size)} ({share:.0%} of the live heap) retained by "
                   f"{owner.type} {owner.address}, through {through}"),
        evidence=Evidence(objects=tuple(objects), path=path,
                          measures={"retainedBytes": float(owner.retained_size), "liveBytes": float(live),
                                    "liveShare": round(share, 4)}),
        next_calls=(f"heap_retention {{\"address\": \"{focus.address}\"}}",
                    f"heap_retained {{\"addresses\": [\"{owner.address}\"]}}", "heap_retained {\"by_type\": true}"))


def duplicate_strings(seen: Observations, limits: Thresholds) -> list[Finding]:
    live = seen.summary.live_bytes
    if live < limits.duplicate_bytes:
        return []  # a heap this small cannot waste that much: no need to read every string
    rows = seen.graph.duplicate_strings(None, live_only=True)
    wasted = sum(r.wasted_bytes for r in rows)
    if wasted < max(limits.duplicate_bytes, limits.duplicate_share * live):
        return []
    top = rows[:5]
    shown = ", ".join(f"{r.value[:40]!r} x{r.count}" for r in top[:3])
    return [Finding(
        kind="duplicate-strings", severity="warning", confidence="high",
        statement=(f"duplicated strings waste {megabytes(wasted)} ({wasted / live:.0%} of the live heap): "
                   f"{sum(r.count for r in rows)} strings hold {len(rows)} distinct values, most wasted {shown}"),
        evidence=Evidence(types=(EvidenceType(type="System.String", count=sum(r.count for r in rows),
                                              size=sum(r.size * r.count for r in rows)),),
                          examples=tuple(r.value[:256] for r in top),
                          measures={"wastedBytes": float(wasted), "liveBytes": float(live),
                                    "distinctValues": float(len(rows))}),
        next_calls=("heap_strings", "heap_retained {\"by_type\": true}"))]


def wasted_capacity(seen: Observations, limits: Thresholds) -> list[Finding]:
    """Collections whose storage far exceeds what they hold, summed by type and owner, when the
    unused slots amount to the thresholds. Count and capacity are read, not estimated."""
    live = seen.summary.live_bytes
    if live < limits.capacity_bytes:
        return []  # a heap this small cannot hold that much unused capacity
    rows = seen.graph.wasted_capacity(None)
    wasted = sum(r.wasted_bytes for r in rows)
    if wasted < max(limits.capacity_bytes, limits.capacity_share * live):
        return []
    top = [r for r in rows[:5] if r.wasted_bytes >= _SHARE_SHOWN * wasted]
    return [Finding(
        kind="wasted-capacity", severity="warning", confidence="high",
        statement=(f"collections hold {megabytes(wasted)} of unused capacity ({wasted / live:.0%} of the live heap): "
                   + "; ".join(_capacity_row(r) for r in top[:2])),
        evidence=Evidence(types=tuple(EvidenceType(type=r.type, count=r.collections, size=r.wasted_bytes) for r in top),
                          objects=tuple(EvidenceObject(address=r.example, type=r.type,
                                                       role=f"owned by {r.owner}: the most unused of its "
                                                            f"group, {r.example_wasted_bytes:,} bytes") for r in top),
                          examples=tuple(r.owner for r in top),
                          measures={"wastedBytes": float(wasted), "liveBytes": float(live),
                                    "collections": float(sum(r.collections for r in rows))}),
        next_calls=(f"heap_object {{\"address\": \"{top[0].example}\"}}", f"heap_instances {{\"type_name\": \"{top[0].type}\"}}"))]


def _capacity_row(row: WastedCapacity) -> str:
    return (f"{row.collections} {row.type} owned by {row.owner} use {row.used:,} of {row.capacity:,} slots "
            f"({megabytes(row.wasted_bytes)} unused)")
