"""Threads, locks, async chains and exceptions of HangShape against what it says it built,
on the hung process (live) and on a crash dump its runtime wrote, on .NET 10, 9 and 8.
Lines are found by `// @bp` markers in its source; thread ids come from the program itself
(Environment.CurrentManagedThreadId and gettid)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.hangshape import Hang
from support.targets import marker_line

from pyinspect.heap import HeapReader
from pyinspect.models.triage import StackFrame, ThreadInfo

Source = tuple[str, Hang, HeapReader]
pytestmark = pytest.mark.timeout(600)


def line(marker: str) -> int:
    return marker_line("HangShape", marker)


def by_name(threads: list[ThreadInfo], name: str) -> ThreadInfo:
    return next(t for t in threads if t.name == name)


def user_frame(thread: ThreadInfo, method: str) -> StackFrame:
    return next(f for f in thread.frames if f.method.startswith(method))


def test_every_thread_it_started_has_its_os_id_managed_id_and_name(source: Source) -> None:
    _, truth, reader = source
    threads = reader.threads()
    for expected in truth.truth["threads"]:
        found = by_name(threads, expected["name"])
        assert (found.os_thread_id, found.managed_thread_id) == (expected["osThreadId"], expected["managedThreadId"])
        assert found.is_background and "background" in found.state


def test_each_blocked_thread_says_what_it_is_blocked_in_at_its_source_line(source: Source) -> None:
    _, truth, reader = source
    threads = reader.threads()
    expected = [("deadlock-a", "monitor", "HangShape.Program.DeadlockA(", "deadlock-a-waits"),
                ("deadlock-b", "monitor", "HangShape.Program.DeadlockB(", "deadlock-b-waits"),
                ("thin-holder", "sleep", "HangShape.Program.HoldThin(", "thin-sleeps"),
                ("semaphore-waiter", "semaphore", "HangShape.Program+<>c.<Main>b__", "semaphore-wait"),
                ("sleeper-thread", "sleep", "HangShape.Program+<>c.<Main>b__", "sleep")]
    if truth.framework != "net8.0":  # System.Threading.Lock is .NET 9+
        expected += [("lock-owner", "sleep", "HangShape.Program.HoldNewLock(", "lock-owner-sleeps"),
                     ("lock-waiter", "lock", "HangShape.Program.WaitNewLock(", "lock-waits")]
    for name, blocked_in, method, marker in expected:
        thread = by_name(threads, name)
        frame = user_frame(thread, method)
        assert thread.blocked_in == blocked_in, (name, thread.blocked_in)
        assert (Path(frame.file or "").name, frame.line) == ("Program.cs", line(marker)), (name, frame)
        assert frame.il_offset is not None and frame.module == "HangShape.dll"


def test_a_frames_stack_objects_are_the_locks_it_holds_and_wants(source: Source) -> None:
    _, _, reader = source
    frame = user_frame(by_name(reader.threads(), "deadlock-a"), "HangShape.Program.DeadlockA(")
    held = {o.type for o in frame.objects or ()}
    assert {"HangShape.LockA", "HangShape.LockB"} <= held
    for obj in frame.objects or ():
        assert reader.object(obj.address).type_name == obj.type


def test_the_monitor_deadlock_is_named_as_a_cycle_of_two_threads(source: Source) -> None:
    _, truth, reader = source
    locks = reader.locks()
    assert len(locks.deadlocks) == 1, locks.deadlocks
    cycle = {(s.thread.name, s.holds_type, s.waits_for_type) for s in locks.deadlocks[0].cycle}
    assert cycle == {("deadlock-a", "HangShape.LockA", "HangShape.LockB"),
                     ("deadlock-b", "HangShape.LockB", "HangShape.LockA")}
    text = locks.deadlocks[0].description
    assert "'deadlock-a'" in text and "'deadlock-b'" in text and "holds HangShape.LockA" in text
    by_type = {lk.type: lk for lk in locks.locks}
    a, b = truth.thread("deadlock-a"), truth.thread("deadlock-b")
    assert by_type["HangShape.LockA"].owner.os_thread_id == a["osThreadId"]  # type: ignore[union-attr]
    assert [w.managed_thread_id for w in by_type["HangShape.LockA"].waiters] == [b["managedThreadId"]]
    assert by_type["HangShape.LockB"].owner.os_thread_id == b["osThreadId"]  # type: ignore[union-attr]
    assert [w.managed_thread_id for w in by_type["HangShape.LockB"].waiters] == [a["managedThreadId"]]
    assert by_type["HangShape.LockA"].deadlock and by_type["HangShape.LockB"].deadlock


def test_a_thin_lock_a_lock_and_a_semaphore_have_their_owners_and_waiters(source: Source) -> None:
    _, truth, reader = source
    by_type = {lk.type: lk for lk in reader.locks().locks}
    thin = by_type["HangShape.ThinHeld"]
    assert thin.owner is not None and thin.owner.name == "thin-holder" and not thin.waiters and not thin.deadlock
    semaphore = by_type["System.Threading.SemaphoreSlim"]
    assert semaphore.owner is None and [w.name for w in semaphore.waiters] == ["semaphore-waiter"]
    if truth.framework == "net8.0":
        assert "System.Threading.Lock" not in by_type
        return
    new_lock = by_type["System.Threading.Lock"]
    assert new_lock.kind == "lock" and new_lock.owner is not None
    assert new_lock.owner.os_thread_id == truth.thread("lock-owner")["osThreadId"]
    assert [w.name for w in new_lock.waiters] == ["lock-waiter"] and not new_lock.deadlock


def test_the_async_chain_is_stuck_on_the_never_completed_source_at_each_await(source: Source) -> None:
    _, truth, reader = source
    assert truth.truth["chainCompleted"] is False
    answer = reader.async_chains()
    stuck = answer.chains[0]
    assert stuck.stuck and stuck.reason
    methods = [(f.method, f.state, f.line) for f in stuck.chain]
    assert methods == [("HangShape.AsyncChain.Inner", 0, line("await-inner")),
                       ("HangShape.AsyncChain.Middle", 1, line("await-middle")),
                       ("HangShape.AsyncChain.Outer", 0, line("await-outer"))]
    inner, middle, outer = stuck.chain
    assert inner.awaits_type == "System.Threading.Tasks.Task<System.Int32>" and inner.awaits_status == "waiting"
    assert (middle.awaits, outer.awaits) == (inner.address, middle.address)


def test_the_held_exception_has_its_message_hresult_and_throwing_line(source: Source) -> None:
    _, truth, reader = source
    answer = reader.exceptions()
    held = [e for e in answer.exceptions if e.type == truth.truth["heldExceptionType"]]
    assert len(held) == 1
    assert (held[0].message, held[0].h_result) == (truth.truth["heldExceptionMessage"],
                                                   truth.truth["heldExceptionHResult"])
    top = held[0].stack[0]
    assert top.method.startswith("HangShape.Program.CaughtException(") and top.line == line("throw-held")
    assert {t.type_name for t in answer.by_type} >= {"System.InvalidOperationException"}
    assert answer.total == sum(t.count for t in answer.by_type)


def test_a_crash_dump_names_the_killing_exception_first_on_its_thread(crash: tuple[Hang, Path]) -> None:
    with HeapReader.open_dump(crash[1]) as reader:
        first = reader.exceptions().exceptions[0]
        crasher = by_name(reader.threads(), "crasher")
    assert (first.type, first.message) == ("System.ApplicationException", "triage-crash")
    assert first.thread == crasher.os_thread_id and first.thread_name == "crasher"
    assert first.inner is not None and (first.inner.type, first.inner.message) == ("System.FormatException",
                                                                                   "inner-cause")
    assert crasher.exception is not None and crasher.exception.address == first.address
    assert any(f.line == line("crash") for f in first.stack)


def test_the_thread_pool_counts_are_read(source: Source) -> None:
    _, _, reader = source
    pool = reader.thread_pool()
    assert pool.initialized and pool.max_threads >= pool.min_threads >= 1


def test_a_thin_lock_whose_owner_no_longer_holds_the_object_on_its_stack_is_found(source: Source) -> None:
    _, truth, reader = source
    orphan = next(lk for lk in reader.locks().locks if lk.type == "HangShape.OrphanLocked")
    assert orphan.kind == "monitor" and orphan.thin_lock and not orphan.waiters and not orphan.deadlock
    assert orphan.owner is not None and orphan.owner.name == "orphan-holder"
    assert (orphan.owner.os_thread_id, orphan.owner.managed_thread_id) == (
        truth.thread("orphan-holder")["osThreadId"], truth.thread("orphan-holder")["managedThreadId"])
    owner = by_name(reader.threads(), "orphan-holder")
    assert user_frame(owner, "HangShape.Program.HoldOrphanAfterReturn(").line == line("orphan-sleeps")
    on_stack = {o.address for f in owner.frames for o in f.objects or ()}
    assert orphan.object not in on_stack  # found through its header, not through a frame


def test_the_thread_pools_queued_work_items_are_counted_by_type_and_queue(source: Source) -> None:
    _, truth, reader = source
    expected, pool = truth.truth["pool"], reader.thread_pool()
    by_type = {q.type: q for q in pool.queued_by_type}
    assert (by_type["HangShape.QueuedWork"].global_, by_type["HangShape.QueuedWork"].local) == (expected["queuedWork"], 0)
    assert (by_type["HangShape.LocalWork"].global_, by_type["HangShape.LocalWork"].local) == (0, expected["localWork"])
    assert by_type["System.Threading.Tasks.Task"].count == expected["queuedTasks"]
    assert pool.queued_work_items == sum(q.count for q in pool.queued_by_type)
    tasks = [item for item in pool.queued_items if item.type == "System.Threading.Tasks.Task"]
    assert [item.callback for item in tasks] == ["HangShape.PoolQueue.QueuedTask"] * expected["queuedTasks"]
    local_queues = {item.queue for item in pool.queued_items if item.type == "HangShape.LocalWork"}
    assert len(local_queues) == 1 and local_queues.pop().startswith("local ")  # the last blocker's own queue
    for item in pool.queued_items:
        assert reader.object(item.address).type_name == item.type
    assert pool.max_threads == expected["poolThreads"]  # the program capped it there
