"""The notebook face of a debug session (pyinspect.launch / pyinspect.attach ->
Debugger) against AgentStory and DebuggeeLoop under our adapter: stack and locals as
DataFrames, evaluation, stepping, heap reads, and the session's end as debug_disconnect's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from support.debuggee_loop import counter_moves, counting_loop
from support.targets import marker_line, target_dll, target_source

import pyinspect
from pyinspect.errors import (
    DepthExceededError,
    EvaluationError,
    InvalidParameterError,
    NotPausedError,
    PyInspectError,
)
from pyinspect.models.memory import ObjectInspection

STORY = str(target_source("AgentStory"))


def story_line(marker: str) -> int:
    return marker_line("AgentStory", marker)


@pytest.fixture
def at_price() -> Iterator[pyinspect.Debugger]:
    dbg = pyinspect.launch(str(target_dll("AgentStory")), ["4"], breakpoints=[(STORY, story_line("price"))])
    try:
        state = dbg.wait(20)
        assert state.state == "paused" and state.location is not None, state
        yield dbg
    finally:
        dbg.close()


def test_stack_and_locals_come_as_dataframes(at_price: pyinspect.Debugger) -> None:
    stack = at_price.stack()
    assert list(stack.columns) == ["index", "function", "file", "line", "module"]
    assert list(stack["function"][:3]) == ["Price", "Process", "Main"]
    assert (stack["line"][0], stack["file"][0], stack["module"][0]) == (story_line("price"), STORY, "AgentStory.dll")
    local = at_price.locals()
    assert list(local["name"]) == ["this", "quantity", "unit", "total"]
    assert local.set_index("name").loc["quantity", ["value", "scope"]].tolist() == ["1", "argument"]
    assert list(at_price.locals(scope="arguments")["name"]) == ["quantity"]
    caller = at_price.locals(frame_index=1, scope="arguments").set_index("name")["value"].to_dict()
    assert caller == {"quantities": "{int[3]}", "label": '"first"'}
    customer = at_price.children("this._customer").set_index("name")["value"]
    assert (customer["Name"], customer["Id"], customer["Referrer"]) == ('"Ada"', "7", "null")
    assert "Price" in repr(at_price) and "paused" in repr(at_price)


def test_breakpoints_are_listed_and_cleared(at_price: pyinspect.Debugger) -> None:
    added = at_price.break_at(STORY, story_line("exit"))
    table = at_price.breakpoints().set_index("id")
    assert list(table["line"]) == [story_line("price"), story_line("exit")]
    assert bool(table.loc[added.id, "verified"]) and table.loc[added.id, "bound_line"] == story_line("exit")
    assert at_price.remove_breakpoint(added.id).id == added.id
    assert list(at_price.breakpoints()["line"]) == [story_line("price")]


def test_threads_come_as_a_dataframe_with_where_each_one_is(at_price: pyinspect.Debugger) -> None:
    threads = at_price.threads()
    assert list(threads.columns) == ["id", "name", "state", "is_current", "function", "file", "line"]
    current = threads[threads["is_current"]]
    assert len(current) == 1 and set(threads["state"]) == {"stopped"}
    assert current.iloc[0][["function", "line"]].tolist() == ["Price", story_line("price")]
    assert "Main Thread" in set(threads["name"])


def test_set_writes_the_paused_program_and_later_reads_see_it(at_price: pyinspect.Debugger) -> None:
    assert at_price.eval("unit * quantity") == "2.5"  # read (and cached) before the write
    assert at_price.set("quantity", 4) == "4"
    assert at_price.eval("quantity") == "4" and at_price.eval("unit * quantity") == "10.0"  # decimal keeps its scale
    assert at_price.locals().set_index("name").loc["quantity", "value"] == "4"
    assert at_price.set("this._customer.Name", 'Grace "G"\n') == '"Grace \\"G\\"\\n"'
    assert at_price.eval("this._customer.Name.Length") == "10"
    assert at_price.set("this._customer.Referrer", None) == "null"
    with pytest.raises(PyInspectError):
        at_price.set("quantity", "four")
    with pytest.raises(InvalidParameterError):
        at_price.set("unit", float("nan"))
    assert at_price.eval("quantity") == "4"


def test_eval_step_and_continue(at_price: pyinspect.Debugger) -> None:
    assert at_price.eval("this._customer.Name") == '"Ada"'
    with pytest.raises(EvaluationError):
        at_price.eval("no_such_name")
    stepped = at_price.step()
    assert stepped.stop_reason == "step" and stepped.location is not None
    assert stepped.location.line == story_line("price-return")
    assert at_price.eval("total") == "2.5"
    again = at_price.resume()
    assert again.state == "paused" and at_price.eval("quantity") == "2"
    bp = at_price.break_at(STORY, story_line("exit"))
    assert bp.verified is True
    at_price.session.remove_breakpoint(1)
    at_exit = at_price.cont()
    assert at_exit.location is not None and at_exit.location.line == story_line("exit")
    assert at_price.eval("exitCode") == "4"
    end = at_price.cont()
    assert end.state == "exited" and end.exit_code == 4, end


def test_heap_reads_at_the_adapters_address(at_price: pyinspect.Debugger) -> None:
    orders = at_price.collection("this._customer.Orders")
    assert (orders.count, orders.kind, orders.element_type) == (1, "List", "AgentStory.Order")
    customer = at_price.object("this._customer", depth=2)
    assert customer.type_name == "AgentStory.Customer" and customer.field("Id").value == "7"
    assert customer.field("Id").offset > 0 and customer.size > 0
    summary = at_price.summary("this._customer")
    assert summary.field("Name").value == '"Ada"' and "Referrer" in summary.null_fields
    with pytest.raises(DepthExceededError):
        at_price.object("this._customer", depth=11)
    unit = at_price.object("unit")  # a decimal local: a struct value, answered as object_inspect does
    assert isinstance(unit, ObjectInspection) and unit.is_value_type and unit.address is None


def test_a_struct_is_summarized_as_the_tool_summarizes_it(at_price: pyinspect.Debugger) -> None:
    summary = at_price.summary("unit")
    assert summary.type_name in ("decimal", "System.Decimal") and summary.size == 0


def test_eval_answers_a_value_with_its_type(at_price: pyinspect.Debugger) -> None:
    total = at_price.eval("unit * quantity")
    assert total == "2.5" and str(total) == "2.5" and total.text == "2.5"
    assert total.type in ("decimal", "System.Decimal") and total.has_children is False
    assert at_price.eval("quantity", format="hex") == "0x1"


def test_removed_spellings_are_gone(at_price: pyinspect.Debugger) -> None:
    with pytest.raises(TypeError):
        at_price.locals(frame=1)  # type: ignore[call-arg]
    assert not hasattr(at_price, "clear")
    assert not hasattr(pyinspect, "debug_attach") and not hasattr(pyinspect, "attach_heap")


def test_the_package_lists_its_public_names() -> None:
    names = dir(pyinspect)
    for name in ("launch", "attach", "open_heap", "open_dump", "Debugger", "Heap", "diff", "diagnose", "EvalResult"):
        assert name in names and name in pyinspect.__all__
    assert "debug_attach" not in pyinspect.__all__


def test_close_terminates_what_it_launched() -> None:
    dbg = pyinspect.launch(str(target_dll("AgentStory")), breakpoints=[(STORY, story_line("exit"))])
    try:
        assert dbg.wait(20).state == "paused"
        pid = dbg.state.pid
        assert pid is not None
    finally:
        dbg.close()
    deadline = time.monotonic() + 10
    while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the launched program outlived close()"
        time.sleep(0.05)


def test_attach_pause_read_and_close_leave_the_process_running(tmp_path: Path) -> None:
    with counting_loop(tmp_path) as (proc, counter):
        with pyinspect.attach(proc.pid) as dbg:
            with pytest.raises(NotPausedError):
                dbg.locals()
            assert dbg.pause().state == "paused"
            assert not counter_moves(counter)
            assert len(dbg.stack(thread_id=dbg.state.thread_id)) >= 1
        assert counter_moves(counter), "the debuggee stayed stopped after close()"
        assert proc.poll() is None
