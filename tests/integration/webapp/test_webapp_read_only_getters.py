"""Issue 25's done-when line on the ASP.NET Core app: paused in a request's service
(PricingService, holding `_repository`), read-only evaluation (DAP `noSideEffects`, what
pyinspect's `evaluate` sends) answers getters and methods by interpreting their IL against
memory: `_repository.All` is `=> _orders`, `Count` is `=> _orders.Count`, DateTime.Year and
Nullable.Value are BCL getters, Describe() interpolates. Each answer equals func-eval's
(the same expression with calls allowed: the app's own code computing it) and the count
the app's data implies; the request then completes, so the app was left running."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
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
    "_repository.Get(7).Describe()",                      # Dictionary.TryGetValue by int key, in the app's own method
    "_repository.Get(123456) == null",                    # a key the dictionary does not hold
]


@dataclass
class App:
    peer: WirePeer
    port: int
    first_resumed: bool = False


@pytest.fixture(scope="module")
def app() -> Iterator[App]:
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
        yield App(peer, port)
        assert http_get(port, "/orders/count").body == "10000"  # nothing the evaluations ran changed the app
    finally:
        peer.close()


@pytest.fixture(scope="module")
def paused(app: App) -> Iterator[PausedAt]:
    answer = request_in_background(app.port, "/orders/7/total")
    at = PausedAt(app.peer)
    yield at
    if not app.first_resumed:
        ok(app.peer.request("continue", {"threadId": at.thread}))
    assert answer.result(60).status == 200


@pytest.fixture(scope="module")
def summary(app: App, paused: PausedAt) -> Iterator[PausedAt]:
    """The same app resumed from the first stop, paused in the summary handler with the request's
    HttpContext (`context`) in reach: Kestrel's feature getters (typeof chains in HttpProtocol.Get<T>)."""
    ok(app.peer.request("setBreakpoints", {"source": {"path": str(target_source(WEBAPP))},
                                           "breakpoints": [{"line": marker_line(WEBAPP, "summary")}]}))
    ok(app.peer.request("continue", {"threadId": paused.thread}))
    app.first_resumed = True
    answer = request_in_background(app.port, "/orders/7/summary")
    at = PausedAt(app.peer)
    yield at
    ok(app.peer.request("continue", {"threadId": at.thread}))
    assert answer.result(60).status == 200


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


# In the summary handler, through the request's HttpContext: Dictionary.Comparer tests
# `typeof(TKey) == typeof(string)`; StringValues tests its one field against string and string[].
# Run last: the fixture resumes the first stop.
FEATURES = [
    "repository._byId.Comparer",
    "context._response.ContentType",
]


@pytest.mark.parametrize("expression", FEATURES)
def test_typeof_tests_in_app_and_bcl_getters_answer_what_func_eval_answers(summary: PausedAt, expression: str) -> None:
    assert read_only(summary, expression) == with_calls(summary, expression)


# Lazy caches the app's objects have not filled yet at the stop: `_keys ??= new KeyCollection(this)`,
# `_connection ??= new DefaultConnectionInfo(...)`. The read-only answer fills them inside the
# evaluation only: it equals func-eval's, and the field still holds null in the app afterwards.
LAZY_CACHES = {
    "repository._byId.Keys": "repository._byId._keys",
    "repository._byId.Values": "repository._byId._values",
    "context.Connection": "context._connection",
}


@pytest.mark.parametrize("expression", list(LAZY_CACHES))
def test_a_lazy_cache_getter_answers_read_only_and_leaves_the_cache_empty(summary: PausedAt, expression: str) -> None:
    cache = LAZY_CACHES[expression]
    assert read_only(summary, cache) == "null", "the cache is filled already: the test proves nothing"
    answer = ok(summary.evaluate(expression, noSideEffects=True))
    assert "memoryReference" not in answer, "the value was made in the evaluation, not in the app"
    assert read_only(summary, cache) == "null", "the read-only evaluation wrote into the app"
    truth = ok(summary.evaluate(expression))  # func-eval: the app's own getter fills its cache
    assert (answer["result"], answer["type"]) == (truth["result"], truth["type"])
    assert read_only(summary, cache) != "null", "func-eval did not fill the cache: the check above proves nothing"


@pytest.mark.parametrize("expression", ["context.User", "context.Items"])
def test_a_feature_getter_runs_kestrels_typeof_chain_and_stops_where_kestrel_would_change(
        summary: PausedAt, expression: str) -> None:
    """HttpProtocol.Get<TFeature> (`typeof(TFeature) == typeof(IHttpRequestFeature)`, ..., then the
    Type keys the app holds) is interpreted, the empty cache slot is filled inside the evaluation
    and the feature's factory delegate runs interpreted; what is refused is Kestrel's
    IFeatureCollection.Set bumping the collection's revision (an int that holds a value: a real
    change to the app, which func-eval does make)."""
    response = summary.evaluate(expression, noSideEffects=True)
    assert response["success"] is False
    message = response["message"]
    assert "ldtoken" not in message and "type handle" not in message and "Func.Invoke" not in message, message
    assert "stores into field" in message and "_featureRevision" in message and "IFeatureCollection.Set" in message, message
    assert with_calls(summary, expression).startswith("{")


def test_a_struct_a_getter_makes_answers_read_only_as_func_eval_shows_it(summary: PausedAt) -> None:
    """`context.Request.Path` is a PathString the getter makes: shown as func-eval shows it,
    no address, and its field holds the path of the request being served."""
    # func-eval first: the getter fills the request's feature cache (a store the read-only
    # evaluation refuses to make), as the handler's own line would; then it reads from memory
    truth = ok(summary.evaluate("context.Request.Path"))
    made = ok(summary.evaluate("context.Request.Path", noSideEffects=True))
    assert (made["result"], made["type"]) == (truth["result"], truth["type"])
    assert made["type"] == "Microsoft.AspNetCore.Http.PathString"
    assert "memoryReference" not in made
    fields = ok(summary.peer.request("variables", {"variablesReference": made["variablesReference"]}))["variables"]
    assert [(f["name"], f["value"]) for f in fields] == [("Value", '"/orders/7/summary"')]  # its auto-property's field
    assert read_only(summary, "context.Request.Path.Value") == '"/orders/7/summary"'
    assert read_only(summary, "context.Request.Path.HasValue") == "true"
