"""diagnose's rules at their boundaries, on records built by hand (no process): the crash rule
tells an unhandled exception from one a frame catches, starvation counts only pool threads
inside a work item, thresholds are named and checked, every kind has one rule."""

from __future__ import annotations

from typing import Any

import pytest

from pyinspect.errors import HeapReadError, InvalidParameterError
from pyinspect.models.completeness import COMPLETE
from pyinspect.models.diagnosis import FINDING_KINDS, Thresholds
from pyinspect.models.triage import (
    ExceptionInfo,
    Exceptions,
    StackFrame,
    ThreadInfo,
    ThreadPoolInfo,
)
from pyinspect.session.diagnosis import diagnose, parse_thresholds
from pyinspect.session.diagnosis.crash import killing_exception
from pyinspect.session.diagnosis.hangs import starvation
from pyinspect.session.diagnosis.observations import Observations
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
