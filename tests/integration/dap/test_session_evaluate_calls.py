"""The session's evaluate through the Python API the MCP tools use: read-only by default
(an expression that needs debuggee code is refused with EVALUATION_NEEDS_CALL, naming the
call), calls only when allowed, and after a call no cached read of that stop survives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.targets import marker_line, target_dll, target_source

import pyinspect
from pyinspect.errors import ErrorCode, EvaluationNeedsCallError


@pytest.fixture
def at_eval(tmp_path: Path) -> Iterator[pyinspect.Debugger]:
    source = str(target_source("EvalSample"))
    dbg = pyinspect.launch(str(target_dll("EvalSample")), [str(tmp_path / "truth.json")],
                           breakpoints=[(source, marker_line("EvalSample", "eval"))])
    try:
        state = dbg.wait(30)
        assert state.state == "paused", state
        yield dbg
    finally:
        dbg.close()


def evaluate_with_calls(dbg: pyinspect.Debugger, expression: str) -> str:
    return dbg.session.stop_reader.evaluate(expression, None, 0, "default", allow_calls=True).result


def test_read_only_evaluate_names_the_call_it_would_run(at_eval: pyinspect.Debugger) -> None:
    with pytest.raises(EvaluationNeedsCallError) as refused:
        at_eval.eval("orders.RemoveAt(0)")
    assert refused.value.code == ErrorCode.EVALUATION_NEEDS_CALL
    assert "System.Collections.Generic.List.RemoveAt" in refused.value.message
    assert "evaluate_with_calls" in refused.value.message
    assert at_eval.eval("orders.Count") == "5"


def test_a_call_drops_every_cached_read_and_runs_again_when_repeated(at_eval: pyinspect.Debugger) -> None:
    assert at_eval.eval("orders.Count") == "5"
    assert at_eval.eval("orders[0].Id") == "1"
    evaluate_with_calls(at_eval, "orders.RemoveAt(0)")
    assert at_eval.eval("orders.Count") == "4"
    assert at_eval.eval("orders[0].Id") == "2"
    evaluate_with_calls(at_eval, "orders.RemoveAt(0)")  # the same call again: it runs again
    assert at_eval.eval("orders.Count") == "3"
    assert evaluate_with_calls(at_eval, "orders[0].Counted") == "1"
    assert evaluate_with_calls(at_eval, "orders[0].Counted") == "2"
    assert at_eval.eval("Order.Reads") == "2"
