"""Breakpoint conditions that call getters keep their meaning (issue 25): GetterTruth's
`conditions` loop runs 40 Items past two conditional breakpoints. `item.IsMultipleOfSeven`
(a pure getter, which the IL interpreter answers from memory) stops exactly at the
iterations where the getter is true; `item.CountedId == 9` calls a getter that moves the
program's SideEffects.Count, which the interpreter refuses, so the condition runs it by
func-eval as before: the counter, read at every stop and written by the program at its
end, moves exactly once per hit. One launch for the module."""

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
    counter: int  # SideEffects.Count read from memory at the stop


@dataclass(frozen=True)
class LoopRun:
    stops: list[Stop]
    final_counter: int  # what the program wrote at its end


def run_loop(truth: Path) -> LoopRun:
    source = str(target_source(TARGET))
    lines = {marker_line(TARGET, name): name for name in ("pure", "counted")}
    session = Session(adapter="pyinspect")
    session.set_breakpoint(source, marker_line(TARGET, "pure"), condition="item.IsMultipleOfSeven && item.Id > 0")
    session.set_breakpoint(source, marker_line(TARGET, "counted"), condition="item.CountedId == 9")
    session.launch(str(target_dll(TARGET)), [str(truth), "conditions"], None, None, False)
    dbg = Debugger(session)
    stops = []
    try:
        state = dbg.wait(120)
        while state.state == "paused":
            assert state.location is not None and state.location.line in lines, state
            stops.append(Stop(lines[state.location.line], int(dbg.eval("i")), int(dbg.eval("SideEffects.Count"))))
            state = dbg.resume(wait=True, timeout=120)
        assert state.state == "exited" and state.exit_code == 0, state
    finally:
        dbg.close()
    counter, _ = truth.read_text().split()
    return LoopRun(stops, int(counter))


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopRun]:
    yield run_loop(tmp_path_factory.mktemp("getter-conditions") / "loop.txt")


def test_an_interpreted_getter_in_a_condition_stops_exactly_where_it_is_true(loop: LoopRun) -> None:
    assert [s.i for s in loop.stops if s.marker == "pure"] == [7, 14, 21, 28, 35]


def test_a_side_effecting_getter_in_a_condition_runs_by_func_eval_once_per_hit(loop: LoopRun) -> None:
    assert [s.i for s in loop.stops if s.marker == "counted"] == [9]
    # The pure line's stop at iteration i follows i hits of the counted line; the counted
    # line's stop at i follows its own i + 1.
    assert [(s.marker, s.i, s.counter) for s in loop.stops] == [
        ("pure", 7, 7), ("counted", 9, 10), ("pure", 14, 14), ("pure", 21, 21), ("pure", 28, 28), ("pure", 35, 35)]
    assert loop.final_counter == ITERATIONS
