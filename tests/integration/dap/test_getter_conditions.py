"""Breakpoint conditions that call getters keep their meaning (issue 25): GetterTruth's
`conditions` loop runs 40 Items past two conditional breakpoints. `item.IsMultipleOfSeven`
(a pure getter, which the IL interpreter answers from memory) stops exactly at the
iterations where the getter is true; `item.CountedId == 9` calls a getter that moves the
program's SideEffects.Count, which the interpreter refuses, so the condition runs it by
func-eval as before: the counter, read at every stop and written by the program at its
end, moves exactly once per hit. Then `entry.IsFlagged` over 30 base-typed Entries, the
getter bound to memory reads and run with no frame: its receiver changes type between hits
(an override: dispatch on the new method table), is null (the evaluator's answer), counts
its calls (refused, so func-eval runs it once per hit) or throws (answered as the throw).
One launch for the module."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.targets import marker_line, target_dll, target_source

from pyinspect.notebook.debugger import Debugger
from pyinspect.session.debug_session import Session

TARGET = "GetterTruth"
ITERATIONS = 40


@dataclass(frozen=True)
class Stop:
    marker: str
    i: int
    counter: int  # SideEffects.Count (DispatchEffects.Count at `dispatch`) read from memory at the stop
    why: str  # the adapter's console message before the stop: why the condition could not be evaluated


@dataclass(frozen=True)
class LoopRun:
    stops: list[Stop]
    final_counter: int  # what the program wrote at its end
    final_dispatch_counter: int


def run_loop(truth: Path, program: Path | None = None) -> LoopRun:
    """The loop under the adapter: GetterTruth.dll on .NET 10, or a self-contained build's apphost."""
    source = str(target_source(TARGET))
    lines = {marker_line(TARGET, name): name for name in ("pure", "counted", "dispatch")}
    session = Session(adapter="pyinspect")
    session.set_breakpoint(source, marker_line(TARGET, "pure"), condition="item.IsMultipleOfSeven && item.Id > 0")
    session.set_breakpoint(source, marker_line(TARGET, "counted"), condition="item.CountedId == 9")
    session.set_breakpoint(source, marker_line(TARGET, "dispatch"), condition="entry.IsFlagged")
    session.launch(str(program or target_dll(TARGET)), [str(truth), "conditions"], None, None, False)
    dbg = Debugger(session)
    stops = []
    cursor = 0
    try:
        state = dbg.wait(120)
        while state.state == "paused":
            assert state.location is not None and state.location.line in lines, state
            marker = lines[state.location.line]
            page = session.output.read(cursor, 1_000_000)
            cursor = page.next_cursor
            why = "".join(c.text for c in page.chunks if c.stream == "console" and "Breakpoint condition" in c.text)
            counter = "DispatchEffects.Count" if marker == "dispatch" else "SideEffects.Count"
            stops.append(Stop(marker, int(dbg.eval("i")), int(dbg.eval(counter)), why))
            state = dbg.resume(wait=True, timeout=120)
        assert state.state == "exited" and state.exit_code == 0, state
    finally:
        dbg.close()
    counter, _, dispatched = truth.read_text().split()
    return LoopRun(stops, int(counter), int(dispatched))


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopRun]:
    yield run_loop(tmp_path_factory.mktemp("getter-conditions") / "loop.txt")


def test_an_interpreted_getter_in_a_condition_stops_exactly_where_it_is_true(loop: LoopRun) -> None:
    assert [s.i for s in loop.stops if s.marker == "pure"] == [7, 14, 21, 28, 35]


def test_a_side_effecting_getter_in_a_condition_runs_by_func_eval_once_per_hit(loop: LoopRun) -> None:
    assert [s.i for s in loop.stops if s.marker == "counted"] == [9]
    # The pure line's stop at iteration i follows i hits of the counted line; the counted
    # line's stop at i follows its own i + 1.
    assert [(s.marker, s.i, s.counter) for s in loop.stops if s.marker != "dispatch"] == [
        ("pure", 7, 7), ("counted", 9, 10), ("pure", 14, 14), ("pure", 21, 21), ("pure", 28, 28), ("pure", 35, 35)]
    assert loop.final_counter == ITERATIONS


NULLS = [2, 6, 10, 14, 18, 26]  # Entry.Make: i % 4 == 2 is null, but 22 is a ThrowingEntry


def test_a_bound_getter_dispatches_on_each_receivers_own_type(loop: LoopRun) -> None:
    dispatch = [s for s in loop.stops if s.marker == "dispatch"]
    # Entry (i % 4 == 0) flags multiples of 5, its override ThirdEntry (i % 4 == 1) multiples of 3
    # (the base getter would stop at 5 and 25), CountedEntry (i % 4 == 3) only 15.
    flagged = [s.i for s in dispatch if not s.why]
    assert flagged == [0, 9, 15, 20, 21]


def test_a_null_receiver_stops_with_the_evaluators_null_reference_answer(loop: LoopRun) -> None:
    dispatch = {s.i: s for s in loop.stops if s.marker == "dispatch"}
    for i in NULLS:
        assert i in dispatch, f"no stop at the null entry {i}"
        assert "NullReferenceException" in dispatch[i].why, dispatch[i]


def test_a_getter_that_throws_stops_with_what_it_threw(loop: LoopRun) -> None:
    thrown = [s for s in loop.stops if s.marker == "dispatch" and s.i == 22]
    assert len(thrown) == 1
    assert "threw System.InvalidOperationException: entry 22 cannot say" in thrown[0].why, thrown[0]


def test_a_refused_bound_getter_falls_back_to_func_eval_once_per_hit(loop: LoopRun) -> None:
    # CountedEntry sits at i = 3, 7, 11, 15, 19, 23, 27: its stop at 15 follows 4 calls of its getter.
    assert [(s.i, s.counter) for s in loop.stops if s.marker == "dispatch" and s.i == 15] == [(15, 4)]
    assert [s.i for s in loop.stops if s.marker == "dispatch"] == sorted([0, 9, 15, 20, 21, 22, *NULLS])
    assert loop.final_dispatch_counter == 7
