"""Threads that cannot go on: deadlocks, lock convoys, a starved thread pool, a blocked
finalizer thread. Each is decided from the locks reader's owners and waiters, the threads'
stacks and the pool's queues."""

from __future__ import annotations

from pyinspect.models.diagnosis import Evidence, EvidenceObject, EvidenceType, Finding, Thresholds
from pyinspect.models.triage import LockInfo, ThreadInfo, ThreadRef
from pyinspect.session.diagnosis.evidence import label, thread_evidence, user_frame, where
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["convoys", "deadlocks", "finalizer_blocked", "semaphore_deadlocks", "starvation"]

_SEMAPHORE_COUNT = "m_currentCount"

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
    return found + semaphore_deadlocks(seen)


def semaphore_deadlocks(seen: Observations) -> list[Finding]:
    """A SemaphoreSlim has no owner, so no cycle closes through it; an expert decides it thus:
    its count is 0, a thread waiting for it owns a monitor or Lock other threads wait for, and
    no thread running the program's code is unblocked. The waits and the ownership are proven;
    that a thread blocked behind it took the slot is inferred (every other program thread is
    blocked too, so nothing else can release it): medium confidence."""
    owned: dict[int, list[LockInfo]] = {}
    for held in seen.locks.locks:
        if held.kind != "semaphore" and held.owner is not None and held.waiters:
            owned.setdefault(held.owner.os_thread_id, []).append(held)
    free = [t for t in seen.threads if t.is_alive and t.blocked_in is None and user_frame(t.frames) is not None]
    found = []
    for sem in seen.locks.locks:
        if sem.kind != "semaphore" or not sem.waiters or free or _semaphore_count(seen, sem.object) != 0:
            continue
        holding = [(w, held) for w in sem.waiters for held in owned.get(w.os_thread_id, [])]
        behind = {b.os_thread_id: b for _, held in holding for b in held.waiters
                  if b.os_thread_id not in {w.os_thread_id for w in sem.waiters}}
        if holding and behind:
            found.append(_semaphore_finding(seen, sem, holding, list(behind.values())))
    return found


def _semaphore_count(seen: Observations, address: str) -> int | None:
    """The semaphore's count as its field holds it; None when it cannot be read (not decided then)."""
    fields = {f.name: f.value for f in seen.reader.object(address, 1).fields}
    value = fields.get(_SEMAPHORE_COUNT)
    return int(value) if value is not None and value.lstrip("-").isdigit() else None


def _semaphore_finding(seen: Observations, sem: LockInfo, holding: list[tuple[ThreadRef, LockInfo]],
                       behind: list[ThreadRef]) -> Finding:
    waits = "; ".join(f"{label(w)} holds {held.type} {held.object} and waits for the semaphore" for w, held in holding)
    stuck = ", ".join(label(b) for b in behind)
    refs = [w for w, _ in holding] + behind
    threads = [t for t in (seen.thread(r.os_thread_id) for r in refs) if t is not None]
    roles = {w.os_thread_id: "holds a lock and waits for the semaphore" for w, _ in holding}
    methods = [f for f in (user_frame(t.frames) for t in threads) if f is not None]
    objects = [EvidenceObject(address=sem.object, type=sem.type, role="semaphore at count 0 (no owner)")]
    objects += [EvidenceObject(address=held.object, type=held.type, role=f"held by {label(w)}") for w, held in holding]
    return Finding(
        kind="deadlock", severity="critical", confidence="medium",
        statement=(f"deadlock through {sem.type} {sem.object} (count 0): {waits}; {stuck} waits for that lock. "
                   "Proven: the count, the waits and the lock's owner; inferred: the semaphore's slot is held by "
                   "a thread blocked behind it (a semaphore has no owner; no thread running the program's code "
                   "is free to release it)"),
        evidence=Evidence(threads=tuple(thread_evidence(t, roles.get(t.os_thread_id, "waits for a lock held by a "
                                                                     "semaphore waiter")) for t in threads),
                          objects=tuple(objects), methods=tuple(methods),
                          measures={"semaphoreCount": 0.0, "semaphoreWaiters": float(len(sem.waiters))}),
        next_calls=("heap_locks", "heap_threads", f"heap_object {{\"address\": \"{sem.object}\"}}"))


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
