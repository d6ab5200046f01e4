"""Read-only evaluation by the IL interpreter on .NET 8 and 9 (issue 25), whose BCL IL differs
from .NET 10's: GetterTruth published self-contained for each (tests/targets/_build/
GetterTruth-net8.0/, -net9.0/, by build.py), started through its apphost as a user would.
At the `getters` stop every getter the program computed itself answers read-only exactly the
program's value (strings hashed as the runtime hashes them, lambdas handed to LINQ, lazy
caches, thread statics, typeof chains, iterators); the conditions loop stops where its
conditions hold, the bound getter dispatching on each receiver's type without a frame."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.targets import BUILD_DIR, marker_line, read_truth, target_source
from test_getter_conditions import run_loop

import pyinspect
from pyinspect.errors import EvaluationError

TARGET = "GetterTruth"
RUNTIMES = ["net8.0", "net9.0"]


def apphost(framework: str) -> Path:
    program = BUILD_DIR / f"{TARGET}-{framework}" / TARGET
    if not program.is_file():
        pytest.fail(f"{TARGET} for {framework} is not published ({program}); run `python3 build.py`")
    return program


def shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else str(value)


@pytest.mark.parametrize("framework", RUNTIMES)
def test_every_getter_the_program_computed_answers_read_only_its_value(framework: str, tmp_path: Path) -> None:
    truth_file = tmp_path / "truth.json"
    dbg = pyinspect.launch(str(apphost(framework)), [str(truth_file), "getters"],
                           breakpoints=[(str(target_source(TARGET)), marker_line(TARGET, "getters"))])
    try:
        assert dbg.wait(60).state == "paused"
        values = read_truth(truth_file)["values"]
        answers = {}
        for expression in values:
            try:
                answers[expression] = str(dbg.eval(expression))
            except EvaluationError as error:
                answers[expression] = f"refused: {error.message}"
        assert answers == {expression: shown(value) for expression, value in values.items()}
        assert len(values) > 80
    finally:
        dbg.close()


@pytest.mark.parametrize("framework", RUNTIMES)
def test_getter_conditions_stop_where_they_hold(framework: str, tmp_path: Path) -> None:
    loop = run_loop(tmp_path / "loop.txt", apphost(framework))
    assert [s.i for s in loop.stops if s.marker == "pure"] == [7, 14, 21, 28, 35]
    assert [s.i for s in loop.stops if s.marker == "counted"] == [9]
    assert [s.i for s in loop.stops if s.marker == "dispatch" and not s.why] == [0, 9, 15, 20, 21]
    assert (loop.final_counter, loop.final_dispatch_counter) == (40, 7)
