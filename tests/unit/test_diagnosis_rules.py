"""diagnose's rules at their boundaries, on records built by hand (no process): the crash rule
tells an unhandled exception from one a frame catches, starvation counts only pool threads
inside a work item, thresholds are named and checked, every kind has one rule; a semaphore
deadlock needs count 0 and no program thread free, fragmentation pinned regions mostly free,
wasted capacity both thresholds over every type and owner."""

from __future__ import annotations

from typing import Any

import pytest

from pyinspect.errors import HeapReadError, InvalidParameterError
from pyinspect.models.completeness import COMPLETE
from pyinspect.models.diagnosis import FINDING_KINDS, Thresholds
from pyinspect.models.heap import HeapField, HeapObject
from pyinspect.models.heapgraph import (
    GraphSummary,
    HeapLayout,
    SegmentStat,
    TypeDelta,
    WastedCapacity,
)
from pyinspect.models.trace import AllocationRow, StackRow
from pyinspect.models.triage import (
    ExceptionInfo,
    Exceptions,
    LockInfo,
    Locks,
    StackFrame,
    ThreadInfo,
    ThreadPoolInfo,
    ThreadRef,
)
from pyinspect.session.diagnosis import diagnose, parse_thresholds
from pyinspect.session.diagnosis.crash import killing_exception
from pyinspect.session.diagnosis.growth import allocating_methods, objects_being_added
from pyinspect.session.diagnosis.hangs import semaphore_deadlocks, starvation
from pyinspect.session.diagnosis.memory import wasted_capacity
from pyinspect.session.diagnosis.observations import Observations
from pyinspect.session.diagnosis.pressure import fragmentation
from pyinspect.session.diagnosis.ranking import RULES


def frames(*methods: str) -> tuple[StackFrame, ...]:
    return tuple(StackFrame(kind="managed", method=m) for m in methods)


class Records:
    """Stands in for a HeapReader: the records a rule reads."""

    def __init__(self, threads: list[ThreadInfo], exceptions: list[ExceptionInfo] | None = None,
                 pool: ThreadPoolInfo | None = None) -> None:
        self._threads, self._exceptions, self._pool = threads, exceptions or [], pool or ThreadPoolInfo()

    def threads(self, max_frames: int) -> list[ThreadInfo]:
        return self._threads

    def exceptions(self, limit: int) -> Exceptions:
        return Exceptions(total=len(self._exceptions), truncated=False, exceptions=tuple(self._exceptions),
                          completeness=COMPLETE)

    def thread_pool(self) -> ThreadPoolInfo:
        return self._pool


def observe(records: Records, from_dump: bool = True) -> Observations:
    def no_graph() -> Any:
        raise AssertionError("this rule needs no graph")

    return Observations(records, no_graph, from_dump)  # type: ignore[arg-type]


THREAD_STACK = frames("App.Worker.Throw()", "App.Worker.Run()", "System.Threading.Thread.StartCallback()")


def test_an_exception_whose_trace_reaches_the_outermost_frame_killed_the_process() -> None:
    unhandled = ExceptionInfo(address="0x10", type="System.InvalidOperationException", message="boom",
                              h_result=-1, thread=7, stack=THREAD_STACK)
    seen = observe(Records([ThreadInfo(os_thread_id=7, managed_thread_id=3, name="w", frames=THREAD_STACK)],
                           [unhandled]))
    [finding] = killing_exception(seen, Thresholds())
    assert finding.kind == "crash" and finding.evidence.methods[0].method == "App.Worker.Throw()"


def test_an_exception_a_frame_catches_is_no_crash() -> None:
    caught = ExceptionInfo(address="0x10", type="System.InvalidOperationException", message="handled",
                           h_result=-1, thread=7, stack=THREAD_STACK[:2])  # the first pass stopped at Run
    seen = observe(Records([ThreadInfo(os_thread_id=7, managed_thread_id=3, frames=THREAD_STACK)], [caught]))
    assert killing_exception(seen, Thresholds()) == []


WORKER = ("System.Threading.ThreadPoolWorkQueue.Dispatch()",
          "System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart()")


def test_starvation_counts_pool_threads_blocked_inside_work_items_only() -> None:
    blocked = [ThreadInfo(os_thread_id=10 + i, managed_thread_id=i, blocked_in="wait",
                          frames=frames("System.Threading.Tasks.Task.InternalWait()", "App.Handler.Get()", *WORKER))
               for i in range(3)]
    idle = ThreadInfo(os_thread_id=20, managed_thread_id=9, blocked_in="wait",
                      frames=frames("System.Threading.LowLevelLifoSemaphore.Wait()", WORKER[1]))
    pool = ThreadPoolInfo(queued_work_items=4, max_threads=8, active_worker_threads=4)
    [finding] = starvation(observe(Records([*blocked, idle], pool=pool)), Thresholds())
    assert {t.os_thread_id for t in finding.evidence.threads} == {10, 11, 12}
    assert finding.severity == "error" and "sync-over-async" in finding.statement  # below its maximum: error
    assert starvation(observe(Records([*blocked, idle], pool=pool)), Thresholds(starvation_blocked_share=1.0)) == []
    quiet = ThreadPoolInfo(queued_work_items=0, max_threads=8)
    assert starvation(observe(Records([*blocked, idle], pool=quiet)), Thresholds()) == []


def test_thresholds_are_named_either_way_and_checked() -> None:
    assert parse_thresholds({"convoyWaiters": 5, "retained_bytes": "1024"}).convoy_waiters == 5
    assert parse_thresholds(None) == Thresholds()
    with pytest.raises(InvalidParameterError, match="convoy_waiters"):
        parse_thresholds({"convoy_waiters": 0})
    with pytest.raises(InvalidParameterError, match="the thresholds are"):
        parse_thresholds({"no_such": 1})


class BrokenLocks(Records):
    def locks(self) -> Any:
        raise HeapReadError("the sync block table cannot be read")

    def async_chains(self, limit: int) -> Any:
        from pyinspect.models.triage import AsyncChains

        return AsyncChains(state_machines=0, total=0, truncated=False, completeness=COMPLETE)


def test_a_kind_that_cannot_be_read_is_unchecked_with_why_and_the_others_still_answer() -> None:
    thrown = ExceptionInfo(address="0x10", type="System.Exception", message="boom", h_result=-1, thread=7,
                           stack=THREAD_STACK)
    records = BrokenLocks([ThreadInfo(os_thread_id=7, managed_thread_id=3, frames=THREAD_STACK)], [thrown])
    answer = diagnose(records, lambda: (_ for _ in ()).throw(HeapReadError("no graph here")),  # type: ignore[arg-type]
                      from_dump=True)
    assert answer.unchecked["deadlock"].startswith("HEAP_READ_ERROR: the sync block table")
    assert answer.unchecked["retained-memory"].startswith("HEAP_READ_ERROR: no graph here")
    assert [f.kind for f in answer.findings] == ["crash"] and "crash" in answer.checked


def test_every_kind_of_the_closed_list_has_its_rule_in_ranking_order() -> None:
    assert tuple(RULES) == FINDING_KINDS


class SemaphoreRecords(Records):
    """Thread 1 owns a monitor thread 2 waits for, and waits for a SemaphoreSlim at `count`."""

    def __init__(self, count: int, free_worker: bool) -> None:
        a, b = (ThreadRef(os_thread_id=i, managed_thread_id=i) for i in (1, 2))
        blocked = [ThreadInfo(os_thread_id=1, managed_thread_id=1, blocked_in="semaphore", frames=frames("App.A()")),
                   ThreadInfo(os_thread_id=2, managed_thread_id=2, blocked_in="monitor", frames=frames("App.B()"))]
        running = [ThreadInfo(os_thread_id=3, managed_thread_id=3, frames=frames("App.Work()"))]
        super().__init__(blocked + (running if free_worker else []))
        self._count = count
        self._locks = Locks(locks=(
            LockInfo(object="0x10", type="System.Threading.SemaphoreSlim", kind="semaphore", waiters=(a,)),
            LockInfo(object="0x20", type="App.Gate", kind="monitor", owner=a, waiters=(b,))), completeness=COMPLETE)

    def locks(self) -> Locks:
        return self._locks

    def object(self, address: str, depth: int) -> HeapObject:
        count = HeapField(name="m_currentCount", type_name="System.Int32", value=str(self._count), offset=8, size=4)
        return HeapObject(address=address, type_name="System.Threading.SemaphoreSlim", size=40, value="",
                          fields=(count,))


@pytest.mark.parametrize(("count", "free_worker", "found"), [(0, False, True), (1, False, False), (0, True, False)])
def test_a_semaphore_deadlock_needs_count_zero_and_no_program_thread_free(count: int, free_worker: bool,
                                                                          found: bool) -> None:
    findings = semaphore_deadlocks(observe(SemaphoreRecords(count, free_worker)))
    assert bool(findings) == found
    if found:
        (finding,) = findings
        assert finding.confidence == "medium" and "inferred" in finding.statement
        assert [t.os_thread_id for t in finding.evidence.threads] == [1, 2]


class LayoutGraph:
    """Stands in for a heap graph: segments of 4 MiB regions, and wasted collection capacity."""

    def __init__(self, segments: list[SegmentStat], wasted: list[WastedCapacity], live_bytes: int) -> None:
        self._segments, self._wasted, self._live = segments, wasted, live_bytes

    def layout(self) -> HeapLayout:
        return HeapLayout(generations=(), segments=tuple(self._segments))

    def wasted_capacity(self, top: int | None) -> list[WastedCapacity]:
        return self._wasted

    def summary(self) -> GraphSummary:
        return GraphSummary(objects=1, edges=0, roots=1, live_objects=1, live_bytes=self._live, dead_objects=0,
                            dead_bytes=0, unreadable_objects=0, unresolved_references=0, types=1)


def region(free: int, pins: int, kind: str = "Generation0") -> SegmentStat:
    return SegmentStat(kind=kind, start="0x1000", end="0x2000", size=4 << 20, committed=4 << 20,
                       object_bytes=(4 << 20) - free, free_bytes=free, object_count=pins + 1, pinned_objects=pins)


def on_graph(graph: LayoutGraph) -> Observations:
    return Observations(Records([]), lambda: graph, True)  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize(("segments", "found"), [
    ([region(3 << 20, 100)] * 6, True),             # 18 MiB free beside pins, each region 75% free
    ([region(3 << 20, 0)] * 6, False),              # free space without pins: the GC can compact it
    ([region(1 << 20, 100)] * 20, False),           # pinned regions mostly full: 25% free each
    ([region(3 << 20, 100, "Large")] * 6, False),   # the large object heap is not compacted anyway
    ([region(3 << 20, 100)] * 5, False),            # 15 MiB: under fragmentation_bytes
])
def test_fragmentation_needs_pinned_regions_mostly_free_summing_to_the_threshold(segments: list[SegmentStat],
                                                                                 found: bool) -> None:
    assert bool(fragmentation(on_graph(LayoutGraph(segments, [], 64 << 20)), Thresholds())) == found


def capacity(wasted: int, owner: str = "App.Catalog") -> WastedCapacity:
    return WastedCapacity(type="System.Collections.Generic.List<System.Int64>", owner=owner, collections=10,
                          capacity=wasted // 8 + 10, used=10, wasted_bytes=wasted, example="0x10",
                          example_wasted_bytes=wasted // 10)


@pytest.mark.parametrize(("rows", "live", "found"), [
    ([capacity(9 << 20)], 64 << 20, True),
    ([capacity(7 << 20)], 64 << 20, False),                       # under capacity_bytes
    ([capacity(9 << 20)], 200 << 20, False),                      # under capacity_share of the live heap
    ([capacity(5 << 20), capacity(4 << 20, "App.Other")], 64 << 20, True),  # summed over owners
])
def test_wasted_capacity_sums_every_type_and_owner_against_both_thresholds(rows: list[WastedCapacity], live: int,
                                                                           found: bool) -> None:
    findings = wasted_capacity(on_graph(LayoutGraph([], rows, live)), Thresholds())
    assert bool(findings) == found
    if found:
        assert findings[0].evidence.measures["wastedBytes"] == sum(r.wasted_bytes for r in rows)


def _allocated(type_name: str, *stacks: tuple[int, list[str]]) -> AllocationRow:
    rows = [StackRow(method=next((f for f in frames if not f.startswith("System.")), None), frames=frames,
                     samples=samples, share=0.0, estimated_bytes=0) for samples, frames in stacks]
    return AllocationRow(type=type_name, estimated_bytes=0, estimated_count=0, samples=0, top_stacks=rows)


def test_the_code_adding_the_objects_comes_first_and_is_read_from_their_parts_when_they_were_never_sampled() -> None:
    grow = "App.Leaks.Grow()"
    payload = _allocated("System.Byte[]", (9, ["App.Entry..ctor()", grow, "System.Threading.Thread.Start()"]),
                         (1, ["App.Entry..ctor()", "App.Other.Add()"]))
    entry = _allocated("App.Entry", (2, [grow]))
    names = ["App.Entry", "System.Byte[]"]
    assert [f.method for f in allocating_methods([payload, entry], names)] == [grow, "App.Entry..ctor()"]
    # AllocationTick sampled no Entry: the caller of its constructor in its payload's stacks
    assert [f.method for f in allocating_methods([payload], names)] == [grow, "App.Entry..ctor()"]
    assert [f.method for f in allocating_methods([payload], ["App.Order", "System.Byte[]"])] == ["App.Entry..ctor()"]
    assert allocating_methods([], names) == ()


def test_the_objects_being_added_are_not_the_grown_list_array_that_retains_them() -> None:
    def grew(type_name: str, count: int, retained: int) -> TypeDelta:
        return TypeDelta(type=type_name, count_delta=count, size_delta=retained // 2, retained_delta=retained)

    entries, storage = grew("App.Entry", 5000, 5_200_000), grew("App.Entry[]", 1, 5_300_000)
    assert objects_being_added([storage, entries, grew("System.Byte[]", 5000, 5_120_000)]) == entries
    orders = grew("App.Order", 1000, 4_000_000)
    assert objects_being_added([grew("App.OrderLine", 3000, 3_000_000), orders]) == orders
