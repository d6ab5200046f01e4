"""The breakpoint table: pyinspect's own ids, the adapter's answers folded back, hit
counts and exception filters, without an adapter."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyinspect.errors import InvalidParameterError, UnknownBreakpointError
from pyinspect.session.breakpoints import BreakpointTable


@pytest.fixture
def source(tmp_path: Path) -> str:
    path = tmp_path / "Program.cs"
    path.write_text("class P {}\n")
    return str(path)


def test_ids_count_up_and_survive_removal(source: str) -> None:
    table = BreakpointTable()
    first, second = table.add(source, 3, None, None), table.add(source, 9, None, None)
    assert (first.id, second.id) == (1, 2)
    table.remove(1)
    assert table.add(source, 4, None, None).id == 3
    with pytest.raises(UnknownBreakpointError):
        table.remove(1)


@pytest.mark.parametrize(("line", "hit_count"), [(0, None), (3, 0)])
def test_bad_lines_and_hit_counts_are_refused(source: str, line: int, hit_count: int | None) -> None:
    with pytest.raises(InvalidParameterError):
        BreakpointTable().add(source, line, None, hit_count)


def test_a_missing_source_file_is_refused_at_once(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match="no such source file"):
        BreakpointTable().add(str(tmp_path / "Nope.cs"), 3, None, None)


def test_the_adapters_answers_bind_unbinding_says_why_and_a_new_session_counts_hits_again(source: str) -> None:
    table = BreakpointTable()
    bound, pending = table.add(source, 3, "x > 1", None), table.add(source, 50, None, None)
    table.apply_results([bound, pending], [{"id": 11, "verified": True, "line": 4},
                                           {"id": 12, "verified": False, "message": "no code"}])
    assert (bound.verified, bound.bound_line, bound.adapter_id, bound.message) == (True, 4, 11, None)
    assert (pending.verified, pending.message) == (False, "no code")
    table.apply_event({"breakpoint": {"id": 12, "verified": True, "line": 51}})
    assert (pending.verified, pending.bound_line) == (True, 51)
    assert table.by_adapter_id(11) is bound and table.at_location(source, 4) == [bound]
    table.unbind_all("session ended")
    assert all(not b.verified and b.message == "session ended" for b in table.all())
    bound.hits = 4
    table.new_session()
    assert all(b.hits == 0 and b.message == "not bound yet" for b in table.all())


def test_requests_carry_hit_counts_only_to_an_adapter_that_counts_hits(source: str) -> None:
    table = BreakpointTable()
    line = table.add(source, 3, "x > 1", 5, log_message="x={x}")
    function = table.add_function("Ns.T.M", None, 2)
    assert line.request(False) == {"line": 3, "condition": "x > 1", "logMessage": "x={x}"}
    assert line.request(True) == {"line": 3, "condition": "x > 1", "logMessage": "x={x}", "hitCondition": ">= 5"}
    assert function.request(False) == {"name": "Ns.T.M"}
    assert function.request(True) == {"name": "Ns.T.M", "hitCondition": ">= 2"}
    assert table.files() == [source] and table.functions() == [function]


def test_exception_filters_are_set_replaced_and_cleared_one_by_one() -> None:
    table = BreakpointTable()
    table.set_exception_filter("all", "System.FormatException")
    table.set_exception_filter("user_unhandled", None)
    assert table.exception_request() == (["all", "user-unhandled"],
                                          [{"filterId": "all", "condition": "System.FormatException"}])
    table.set_exception_filter("all", None, clear=True)
    assert table.exception_request() == (["user-unhandled"], [])
    with pytest.raises(InvalidParameterError):
        table.set_exception_filter("sometimes", None)
