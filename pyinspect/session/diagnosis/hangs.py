"""Threads that cannot go on: deadlocks, lock convoys, a starved thread pool, a blocked
finalizer thread. Each is decided from the locks reader's owners and waiters, the threads'
stacks and the pool's queues."""

from __future__ import annotations

from pyinspect.models.diagnosis import Evidence, EvidenceObject, EvidenceType, Finding, Thresholds
from pyinspect.models.triage import LockInfo, ThreadInfo
from pyinspect.session.diagnosis.evidence import label, thread_evidence, user_frame, where
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["convoys", "deadlocks", "finalizer_blocked", "starvation"]

_DISPATCH = "System.Threading.ThreadPoolWorkQueue.Dispatch"
_WORKER_LOOP = "System.Threading.PortableThreadPool+WorkerThread."
_SYNC_OVER_ASYNC = ("System.Threading.Tasks.Task.Wait", "System.Threading.Tasks.Task.InternalWait",
                    "System.Threading.Tasks.Task`1.GetResultCore", "System.Threading.Tasks.Task`1.get_Result",
                    "System.Runtime.CompilerServices.TaskAwaiter", "System.Threading.Tasks.Task.SpinThenBlockingWait")


def deadlocks(seen: Observations, limits: Thresholds) -> list[Finding]:
    """Every cycle the locks reader found (monitors and System.Threading.Lock, mixed)."""
    found = []
    for cycle in seen.locks.deadlocks:
        threads, objects, methods = [], [], []
        for step in cycle.cycle:
            thread = seen.thread(step.thread.os_thread_id)
            if thread is not None:
                threads.append(thread_evidence(thread, "holds one lock and waits for the next"))
                frame = user_frame(thread.frames)
                if frame is not None:
                    methods.append(frame)
            objects.append(EvidenceObject(address=step.holds, type=step.holds_type,
                                          role=f"held by {label(step.thread)}"))
        found.append(Finding(
            kind="deadlock", severity="critical", confidence="high",
            statement=f"deadlock of {len(cycle.cycle)} threads: {cycle.description.removeprefix('deadlock: ')}",
            evidence=Evidence(threads=tuple(threads), objects=tuple(objects), methods=tuple(methods)),
            next_calls=("heap_locks", "heap_threads")))
    return found


def convoys(seen: Observations, limits: Thresholds) -> list[Finding]:
    """One owned lock with many waiters. An owner that is itself blocked keeps them waiting
    (error); an owner that runs may be momentary contention (info)."""
    found = []
    for held in seen.locks.locks:
        if held.deadlock or held.owner is None or len(held.waiters) < limits.convoy_waiters:
            continue
        owner = seen.thread(held.owner.os_thread_id)
        stuck = owner is not None and owner.blocked_in is not None
        found.append(_convoy(seen, held, owner, stuck))
    return found


def _convoy(seen: Observations, held: LockInfo, owner: ThreadInfo | None, stuck: bool) -> Finding:
    assert held.owner is not None
    waiters = [t for t in (seen.thread(w.os_thread_id) for w in held.waiters) if t is not None]
    owner_frame = user_frame(owner.frames) if owner else None
    why = f", blocked in {owner.blocked_in} at {where(owner_frame)}" if stuck and owner else ""
    methods = [f for f in [owner_frame, *(user_frame(t.frames) for t in waiters[:1])] if f is not None]
    return Finding(
        kind="lock-convoy", severity="error" if stuck else "info", confidence="high" if stuck else "low",
        statement=(f"lock convoy: {len(held.waiters)} threads wait for {held.kind} {held.type} {held.object} held by "
                   f"{label(held.owner)}{why}"),
        evidence=Evidence(threads=tuple([thread_evidence(owner, "owner")] if owner else [])
                          + tuple(thread_evidence(t, "waiter") for t in waiters),
                          objects=(EvidenceObject(address=held.object, type=held.type, role="the contended lock"),),
                          methods=tuple(methods), measures={"waiters": float(len(held.waiters))}),
        next_calls=("heap_locks", "heap_threads"))


def _running_work_item(thread: ThreadInfo) -> bool:
    return any(f.method.startswith(_DISPATCH) for f in thread.frames)


def _sync_over_async(thread: ThreadInfo) -> bool:
    return any(f.method.startswith(_SYNC_OVER_ASYNC) for f in thread.frames[:16])


def starvation(seen: Observations, limits: Thresholds) -> list[Finding]:
    """Pool threads blocked inside work items while work queues behind them."""
    workers = [t for t in seen.threads
               if t.is_alive and any(f.method.startswith((_WORKER_LOOP, _DISPATCH)) for f in t.frames)]
    blocked = [t for t in workers if _running_work_item(t) and t.blocked_in is not None]
    pool = seen.pool
    if not blocked or len(blocked) < limits.starvation_blocked_share * max(len(workers), 1) \
            or pool.queued_work_items < limits.starvation_queued:
        return []
    sync = [t for t in blocked if _sync_over_async(t)]
    capped = pool.max_threads > 0 and pool.active_worker_threads >= pool.max_threads
    how = "in sync-over-async (.Result, .Wait(), GetAwaiter().GetResult())" if len(sync) == len(blocked) \
        else "in blocking calls" + (f" ({len(sync)} in sync-over-async)" if sync else "")
    methods = {where(user_frame(t.frames)): user_frame(t.frames) for t in blocked}
    return [Finding(
        kind="thread-pool-starvation", severity="critical" if capped else "error", confidence="high",
        statement=(f"thread-pool starvation: {len(blocked)} of {len(workers)} pool threads are blocked {how} at "
                   f"{', '.join(methods)}; {pool.queued_work_items} work items wait in the queues"
                   + (f" and the pool is at its maximum of {pool.max_threads} threads" if capped else "")),
        evidence=Evidence(threads=tuple(thread_evidence(t, "pool thread blocked in a work item") for t in blocked),
                          types=tuple(EvidenceType(type=q.type, count=q.count) for q in pool.queued_by_type),
                          methods=tuple(m for m in methods.values() if m is not None),
                          measures={"blocked": float(len(blocked)), "workers": float(len(workers)),
                                    "queued": float(pool.queued_work_items), "maxThreads": float(pool.max_threads)}),
        next_calls=("heap_threadpool", "heap_threads", "heap_async"))]


def finalizer_blocked(seen: Observations, limits: Thresholds) -> list[Finding]:
    """The finalizer thread blocked inside a finalizer of the program's code."""
    for thread in seen.threads:
        frame = user_frame(thread.frames)
        if not thread.is_finalizer or thread.blocked_in is None or frame is None:
            continue
        queued = [q for q in seen.graph.finalizer_queue() if q.ready > 0]
        ready = sum(q.ready for q in queued)
        return [Finding(
            kind="finalizer-blocked", severity="error", confidence="high",
            statement=(f"the finalizer thread ({label(thread)}) is blocked in {thread.blocked_in} inside "
                       f"{where(frame)}; {ready} objects wait to be finalized behind it"),
            evidence=Evidence(threads=(thread_evidence(thread, "finalizer"),), methods=(frame,),
                              types=tuple(EvidenceType(type=q.type, count=q.ready) for q in queued),
                              measures={"readyForFinalization": float(ready)}),
            next_calls=("heap_threads", "heap_finalizer_queue"))]
    return []
