"""What an evaluation may change. With `noSideEffects` (pyinspect's read-only tools) the
adapter runs no debuggee code and assigns nothing: every call is refused by name, and the
debuggee itself, once resumed, reports its state and the file system unchanged. Without it
(the REPL), calls run, and the next read sees what they changed. Bulk LINQ over a
million-item List and decimal sums read from memory answer what .NET computes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import PausedAt, launched, ok
from support.dap_wire import WirePeer
from support.targets import read_truth

TARGET = "EvalSample"
NEEDS_CALL = "needs a call into the debuggee (func-eval): "


class Stop(PausedAt):
    """A launched EvalSample paused at `@bp eval`, with its truth and after-state files."""

    def __init__(self, peer: WirePeer, truth: Path) -> None:
        super().__init__(peer)
        self.truth_path = truth

    def value(self, expression: str, **extra: Any) -> str:
        return str(ok(self.evaluate(expression, **extra))["result"])

    def read_only(self, expression: str) -> dict[str, Any]:
        return self.evaluate(expression, noSideEffects=True)

    def finish(self) -> dict[str, Any]:
        """Resume to the end; the program's own account of its state after the stop."""
        ok(self.peer.request("continue", {"threadId": self.thread}))
        assert self.peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        after: dict[str, Any] = json.loads(Path(str(self.truth_path) + ".after").read_text())
        return after


@pytest.fixture
def stop(tmp_path: Path) -> Iterator[Stop]:
    truth = tmp_path / "truth.json"
    with launched(TARGET, args=[str(truth)], markers=["eval"]) as peer:
        yield Stop(peer, truth)


# Each refused with the method and the interpreter's reason (the first thing it would change or leave managed code for).
REFUSED_CALLS = [
    ("orders.RemoveAt(0)", "System.Collections.Generic.List.RemoveAt", "stores into field System.Collections.Generic.List._size"),
    ('System.IO.File.WriteAllText(probe, "written by an evaluation")', "System.IO.File.WriteAllText", "does I/O"),
    ("orders[0].Counted", "EvalSample.Order.get_Counted", "stores into static field EvalSample.Order.Reads"),
    ("orders.Sum(o => o.Counted)", "EvalSample.Order.get_Counted", "stores into static field EvalSample.Order.Reads"),
]

# Refused before the interpreter is asked: constructors run in the debuggee would allocate there.
REFUSED_UNINTERPRETED = [("new EvalSample.Order()", "EvalSample.Order..ctor")]


def test_the_read_only_path_runs_no_call_and_assigns_nothing(stop: Stop) -> None:
    for expression, call, reason in REFUSED_CALLS:
        response = stop.read_only(expression)
        assert response["success"] is False, expression
        assert NEEDS_CALL + call + " (" + reason in response["message"], (expression, response["message"])
    for expression, call in REFUSED_UNINTERPRETED:
        response = stop.read_only(expression)
        assert response["success"] is False and NEEDS_CALL + call + ";" in response["message"], (expression, response)
    # Side-effect-free methods answer from their IL, as func-eval would.
    for expression in ("orders[1].Add(1, 2)", "Config.Twice(2)", "orders[0].Label"):
        assert stop.value(expression, noSideEffects=True) == stop.value(expression), expression
    for expression in ("orders[0].Id = 99", "count++", "Order.Reads += 1"):
        response = stop.read_only(expression)
        assert response["success"] is False and "it assigns" in response["message"], expression
    # What the read-only path does answer, from memory: fields, auto-properties, counts.
    assert stop.value("orders.Count", noSideEffects=True) == "5"
    assert stop.value("prices.Count", noSideEffects=True) == "2"
    assert stop.value("ids.Count", noSideEffects=True) == "3"
    assert stop.value("orders[1].Total + orders[0].Total", noSideEffects=True) == "200"
    assert stop.value("orders.Where(o => o.Total > 60).Select(o => o.Id).Sum()", noSideEffects=True) == "9"
    assert stop.value("Order.Reads", noSideEffects=True) == "0"
    after = stop.finish()
    assert after == {"orders": 5, "firstId": 1, "reads": 0, "probeExists": False,
                     "million": 1_000_000, "bulkOrders": 10_000}
    assert not Path(str(stop.truth_path) + ".probe").exists()


def test_after_a_call_every_read_is_fresh_and_a_repeated_call_runs_again(stop: Stop) -> None:
    assert stop.value("orders.Count") == "5"
    assert stop.value("orders[0].Id") == "1"
    ok(stop.evaluate("orders.RemoveAt(0)"))
    assert stop.value("orders.Count") == "4"
    assert stop.value("orders.Count", noSideEffects=True) == "4"
    assert stop.value("orders[0].Id") == "2"
    ok(stop.evaluate("orders.RemoveAt(0)"))
    assert stop.value("orders.Count") == "3"
    assert stop.value("orders[0].Id", noSideEffects=True) == "3"
    assert stop.value("orders[0].Counted") == "1"
    assert stop.value("orders[0].Counted") == "2"
    after = stop.finish()
    assert (after["orders"], after["firstId"], after["reads"]) == (3, 3, 2)


def test_linq_over_a_million_item_list_fits_the_default_budget(stop: Stop) -> None:
    truth = read_truth(stop.truth_path)
    expected = str(truth["millionCount"])
    assert expected == str(1_000_000 - 49_991)
    assert stop.value("million.Where(x => x > 49990).Count()", noSideEffects=True) == expected
    assert stop.value("million.Count(x => x > 49990)") == expected
    assert stop.value("million.Count") == "1000000"
    # Over budget, the answer says which budget and how far it got.
    response = stop.evaluate("million.Where(x => x > 49990).Count()", itemBudget=250_000)
    assert response["success"] is False
    assert "stopped at element 250000 of the source of 'million.Where(x => x > 49990)'" in response["message"]
    assert "the item budget of 250000 is used up" in response["message"]
    # The same on the general path (a lambda the typed compiler leaves to the closure tree).
    response = stop.evaluate("million.Where(x => x.CompareTo(49990) > 0).Count()", itemBudget=250_000)
    assert "stopped at element 250000 of the source of 'million.Where(x => x.CompareTo(49990) > 0)' " \
        "(250000 elements read in all): the item budget of 250000 is used up" in response["message"]
    # The general path within the default item budget; its wall time follows the machine's
    # load (10 s ran out at element 829,439 with two test workers on a loaded 2-core
    # machine), so the time budget is set wide: this line is about the item budget.
    assert stop.value("million.Where(x => x.CompareTo(49990) > 0).Count()", noSideEffects=True,
                      timeBudgetMs=120_000) == expected


def test_decimal_sums_over_ten_thousand_auto_properties_are_dotnets(stop: Stop) -> None:
    truth = read_truth(stop.truth_path)
    body = ok(stop.read_only("bulkOrders.Sum(o => o.Total)"))
    assert (body["result"], body["type"]) == (truth["bulkSum"], "decimal")
    body = ok(stop.read_only("bulkOrders.Average(o => o.Total)"))
    assert (body["result"], body["type"]) == (truth["bulkAverage"], "decimal")
    assert stop.value("bulkOrders.Count(o => o.Total > 1000)", noSideEffects=True) == \
        str(sum(1 for i in range(10_000) if Decimal(i) / 3 + Decimal("0.01") * (i % 997) > 1000))
