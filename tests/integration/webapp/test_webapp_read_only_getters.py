"""Issue 25's done-when line on the ASP.NET Core app: paused in a request's service
(PricingService, holding `_repository`), read-only evaluation (DAP `noSideEffects`, what
pyinspect's `evaluate` sends) answers getters and methods by interpreting their IL against
memory: `_repository.All` is `=> _orders`, `Count` is `=> _orders.Count`, DateTime.Year and
Nullable.Value are BCL getters, Describe() interpolates. Each answer equals func-eval's
(the same expression with calls allowed: the app's own code computing it) and the count
the app's data implies; the request then completes, so the app was left running."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest
from support.adapter_session import PausedAt, ok
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll, target_source
from support.webapp import WEBAPP, free_port, http_get, url_args, wait_until_serving
from test_webapp_debugging import request_in_background

TOTALS = [Decimal(i % 250) + Decimal("0.25") for i in range(1, 10_001)]

DONE_WHEN = "_repository.All.Where(o => o.Total > 100).Count()"

# Getters and methods of every shape the app has, each run by the interpreter (read-only).
INTERPRETED = [
    "_repository.Count",                                  # interface property: => _orders.Count
    "_repository.All.Count",                              # => _orders, then List.Count
    "_repository.All[0].CreatedAt.Year",                  # DateTime.Year (BCL struct getter, Math.DivRem tuple)
    "_repository.All[0].CreatedAt.Minute",
    "_repository.All[0].CreatedAt.Kind",                  # an enum from `~` and `&` on the ticks
    "_repository.All[2].ShippedAt.Value.Day",             # Nullable.Value, then a struct getter
    "_repository.All[2].ShippedAt.HasValue",
    "_repository.All[0].Describe()",                      # $"{Customer} ({Id})"
    "string.IsNullOrEmpty(_repository.All[0].Customer)",
    "_repository.All.Sum(o => o.Total)",
    "_repository.All.Take(200).Where(o => o.Describe().EndsWith(\"7)\")).Count()",  # a method in a lambda
]


class PausedRequest:
    """A request stopped at a breakpoint; released once: continued, and its answer must be 200."""

    def __init__(self, peer: WirePeer, port: int, path: str) -> None:
        self.answer = request_in_background(port, path)
        self.at = PausedAt(peer)
        self._released = False

    def release(self) -> str:
        if not self._released:
            self._released = True
            ok(self.at.peer.request("continue", {"threadId": self.at.thread}))
        response = self.answer.result(60)
        assert response.status == 200
        return str(response.body)


@pytest.fixture(scope="module")
def app() -> Iterator[tuple[WirePeer, int]]:
    """One launch for the module: breakpoints in PricingService and in the summary handler."""
    port = free_port()
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll(WEBAPP)), "args": url_args(port)}, timeout=30))
        for source, marker in (("Services.cs", "compute-first"), ("Program.cs", "summary")):
            ok(peer.request("setBreakpoints", {"source": {"path": str(target_source(WEBAPP, source))},
                                               "breakpoints": [{"line": marker_line(WEBAPP, marker, source)}]}))
        ok(peer.request("configurationDone"))
        wait_until_serving(port)
        yield peer, port
        assert http_get(port, "/orders/count").body == "10000"  # nothing the evaluations ran changed the app
    finally:
        peer.close()


@pytest.fixture(scope="module")
def total_request(app: tuple[WirePeer, int]) -> Iterator[PausedRequest]:
    request = PausedRequest(*app, "/orders/7/total")
    yield request
    request.release()


@pytest.fixture(scope="module")
def paused(total_request: PausedRequest) -> PausedAt:
    return total_request.at


def read_only(at: PausedAt, expression: str) -> str:
    response = at.evaluate(expression, noSideEffects=True)
    assert response["success"], (expression, response.get("message"))
    return str(response["body"]["result"])


def with_calls(at: PausedAt, expression: str) -> str:
    return str(ok(at.evaluate(expression))["result"])


def test_the_done_when_expression_answers_read_only_with_the_apps_own_count(paused: PausedAt) -> None:
    expected = str(sum(1 for total in TOTALS if total > 100))
    assert read_only(paused, DONE_WHEN) == expected
    assert with_calls(paused, DONE_WHEN) == expected


@pytest.mark.parametrize("expression", INTERPRETED)
def test_interpreted_getters_answer_what_func_eval_answers(paused: PausedAt, expression: str) -> None:
    assert read_only(paused, expression) == with_calls(paused, expression)


def test_a_method_that_changes_the_app_is_still_refused_with_its_reason(paused: PausedAt) -> None:
    response = paused.evaluate("_repository.All[0].Lines.Clear()", noSideEffects=True)
    assert response["success"] is False
    assert "needs a call into the debuggee (func-eval): System.Collections.Generic.List.Clear (" in response["message"]
    assert "stores into field" in response["message"]
    assert read_only(paused, "_repository.All[0].Lines.Count") == "1"


def test_a_struct_a_getter_makes_answers_read_only_as_func_eval_shows_it(
        app: tuple[WirePeer, int], total_request: PausedRequest) -> None:
    """`context.Request.Path` is a PathString the getter makes: shown as func-eval shows it,
    no address, and its field holds the path the app itself answers with (its summary ends with it)."""
    total_request.release()
    summary = PausedRequest(*app, "/orders/7/summary")
    try:
        at = summary.at
        # func-eval first: the getter fills the request's feature cache (a store the read-only
        # evaluation refuses to make), as the handler's own line would; then it reads from memory
        truth = ok(at.evaluate("context.Request.Path"))
        made = ok(at.evaluate("context.Request.Path", noSideEffects=True))
        assert (made["result"], made["type"]) == (truth["result"], truth["type"])
        assert made["type"] == "Microsoft.AspNetCore.Http.PathString"
        assert "memoryReference" not in made
        fields = ok(at.peer.request("variables", {"variablesReference": made["variablesReference"]}))["variables"]
        assert [(f["name"], f["value"]) for f in fields] == [("Value", '"/orders/7/summary"')]  # its auto-property's field
        assert read_only(at, "context.Request.Path.Value") == '"/orders/7/summary"'
        assert read_only(at, "context.Request.Path.HasValue") == "true"
    finally:
        body = summary.release()
    assert body.endswith("/orders/7/summary"), body
