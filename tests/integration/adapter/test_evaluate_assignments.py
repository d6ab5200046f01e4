"""Assignments in evaluate, as typed into a debugger's console: `=`, compound operators,
++/--, on locals, fields, statics, properties, array and List elements and Dictionary
entries of EvalSample, each read back from the debuggee; values C# would not convert
implicitly are refused without writing; and a changed local changes what the program does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import launched, ok, output_of, set_breakpoints, top_frame
from support.dap_wire import WirePeer

TARGET = "EvalSample"

Session = tuple[WirePeer, int]


@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    truth_file: Path = tmp_path_factory.mktemp("assign") / "truth.json"
    with launched(TARGET, args=[str(truth_file)], markers=["eval"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        yield peer, thread


def evaluate(session: Session, expression: str) -> dict[str, Any]:
    peer, thread = session
    frame = top_frame(peer, thread)["id"]
    return peer.request("evaluate", {"expression": expression, "frameId": frame, "context": "repl"}, timeout=30)


def value_of(session: Session, expression: str) -> tuple[str, str]:
    body = ok(evaluate(session, expression))
    return body["result"], body["type"]


# Each step: the assignment and what it evaluates to, then an expression reading the
# storage again and what it holds. Steps run in order in one stopped process.
STEPS = [
    ("count = 5", "5", "count", "5"), ("count += 2", "7", "count * 1", "7"), ("count++", "7", "count", "8"),
    ("++count", "9", "count", "9"), ("count -= 10", "-1", "count", "-1"), ("count = (int)2.9", "2", "count", "2"),
    ("b = 255", "255", "b", "255"), ("b += 2", "1", "b", "1"), ("sh = -7", "-7", "sh", "-7"), ("ratio = 3", "3", "ratio", "3"),
    ("ratio *= 2.5", "7.5", "ratio", "7.5"), ("small = 1.5f", "1.5", "small", "1.5"), ("big = count", "2", "big", "2"),
    ("u = 7", "7", "u", "7"), ("letter = 'q'", "'q'", "letter", "'q'"), ("letter++", "'q'", "letter", "'r'"),
    ("flag = !flag", "false", "flag", "false"),
    ('text = "bye"', '"bye"', "text.Length", "3"), ('text += "!"', '"bye!"', "text", '"bye!"'),
    ("text = null", "null", "text is null", "true"), ('nothing ??= "set"', '"set"', "nothing", '"set"'),
    ('nothing ??= "again"', '"set"', "nothing", '"set"'),
    ("maybe = 9", "9", "maybe + 1", "10"), ("maybe = null", "null", "maybe.HasValue", "false"), ("none = 3", "3", "none", "3"),
    ("status = Status.Cancelled", "Cancelled", "(int)status", "2"), ("access |= Access.Exec", "Read | Write | Exec", "access", "Read | Write | Exec"),
    ("point.X = 10", "10", "point.X + point.Y", "14"), ("point.Y += 1", "5", "point.Sum", "15"),
    ("orders[0].Weight = 9.5", "9.5", "orders[0].Weight", "9.5"), ("orders[0].Total = 12.75m", "12.75", "orders[0].Total", "12.75"),
    ("orders[0].Total += 1", "13.75", "orders[0].Total", "13.75"), ("orders[0].Total = 3", "3", "orders[0].Total", "3"),
    ("orders[0].Id = 42", "42", "orders[0].Label", '"#42:Pending"'),
    ("orders[0].Status = Status.Shipped", "Shipped", "orders[0].Label", '"#42:Shipped"'),
    ("orders[0].Customer = orders[1].Customer", "{EvalSample.Customer}", "orders[0].Customer.Name", '"Bob"'),
    ('orders[0].Customer.Name = "Zed"', '"Zed"', "orders[1].Customer.Name", '"Zed"'),
    ("orders[0].Customer = null", "null", 'orders[0].Customer?.Name ?? "none"', '"none"'),
    ("numbers[0] = 100", "100", "numbers.Sum()", "112"), ("numbers[0] += numbers[1]", "103", "numbers[0]", "103"),
    ("grid[1, 2] = 66", "66", "grid[1, 2]", "66"), ('orders[1].Tags[0] = "changed"', '"changed"', "orders[1].Tags[0]", '"changed"'),
    ('prices["apple"] = 9.5m', "9.5", 'prices["apple"]', "9.5"), ('prices["kiwi"] = 1m', "1", "prices.Count", "3"),
    ("Config.MaxItems = 7", "7", "EvalSample.Config.MaxItems", "7"), ("Program.counter = 99", "99", "counter", "99"),
    ("instanceField = 12", "12", "this.instanceField", "12"),
]


def test_assignments_write_the_debuggee_and_read_back(stopped: Session) -> None:
    for assignment, result, check, holds in STEPS:
        assert value_of(stopped, assignment)[0] == result, assignment
        assert value_of(stopped, check)[0] == holds, (assignment, check)


@pytest.mark.parametrize(("assignment", "message", "unchanged"), [
    ("orders[1].Id = 2.5", "cannot implicitly convert double 2.5 to int", "orders[1].Id"),
    ("orders[1].Total = 1.5", "write a cast or an m suffix", "orders[1].Total"),
    ("orders[1].Status = 1", "cannot assign int to 'orders[1].Status'", "orders[1].Status"),
    ("orders[1].Weight = orders[1]", "cannot assign EvalSample.Order", "orders[1].Weight"),
    ("orders[1].Label = \"x\"", "the property has no setter", "orders[1].Label"),
    ("orders[1].Nope = 1", "'Nope' is not a field or property of EvalSample.Order", "orders[1].Id"),
    ("Config.Name = \"x\"", "it is a constant", "Config.Name"),
])
def test_refused_assignments_leave_the_value_as_it_was(stopped: Session, assignment: str, message: str, unchanged: str) -> None:
    before = value_of(stopped, unchanged)
    response = evaluate(stopped, assignment)
    assert response["success"] is False and message in response["message"], response
    assert value_of(stopped, unchanged) == before


@pytest.mark.parametrize("extra", [{"context": "hover"}, {"noSideEffects": True}])
def test_hovers_and_read_only_evaluations_refuse_to_assign(stopped: Session, extra: dict[str, Any]) -> None:
    peer, thread = stopped
    before = value_of(stopped, "orders[2].Id")
    for expression in ("orders[2].Id = 77", "orders[2].Id++"):
        arguments = {"expression": expression, "frameId": top_frame(peer, thread)["id"], "context": "repl", **extra}
        response = peer.request("evaluate", arguments, timeout=30)
        assert response["success"] is False and "it assigns" in response["message"], response
    assert value_of(stopped, "orders[2].Id") == before
    assert value_of(stopped, "orders[2].Id + 1")[0] == str(int(before[0]) + 1)


def test_a_local_changed_by_evaluate_changes_what_the_program_prints(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "truth.json")], markers=["loop"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        session = (peer, thread)
        assert value_of(session, "i")[0] == "0"
        assert value_of(session, "total = 1000") == ("1000", "int")
        set_breakpoints(peer, TARGET, [])
        ok(peer.request("continue", {"threadId": thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        printed = output_of(peer, "stdout")
        assert printed.splitlines()[-1] == str(1000 + sum(range(10)))
