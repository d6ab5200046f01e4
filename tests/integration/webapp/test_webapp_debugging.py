"""The ASP.NET Core app (tests/targets/WebApp) debugged through DAP the way a user would:
a breakpoint in a handler hit by an HTTP request, step into a service through its
interface, step over awaits and off the end of an async method, user-unhandled in the sync
and the async endpoint, attach + breakpoint + detach while serving, terminate."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from support.adapter_session import ok, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll, target_source
from support.webapp import (
    WEBAPP,
    HttpAnswer,
    free_port,
    http_get,
    serving_webapp,
    url_args,
    wait_until_serving,
)

SERVICES = "Services.cs"


def set_marker_breakpoints(peer: WirePeer, file: str, *markers: str) -> list[dict[str, Any]]:
    body = ok(peer.request("setBreakpoints", {
        "source": {"path": str(target_source(WEBAPP, file))},
        "breakpoints": [{"line": marker_line(WEBAPP, m, file)} for m in markers]}))
    return list(body["breakpoints"])


@contextmanager
def debugged_webapp(exception_filters: list[str] | None = None) -> Iterator[tuple[WirePeer, int]]:
    """WebApp launched under the adapter and serving; the peer closes (terminating it) after."""
    port = free_port()
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll(WEBAPP)), "args": url_args(port)}, timeout=30))
        ok(peer.request("setExceptionBreakpoints", {"filters": exception_filters or []}))
        ok(peer.request("configurationDone"))
        wait_until_serving(port)
        yield peer, port
    finally:
        peer.close()


def request_in_background(port: int, path: str) -> Future[HttpAnswer]:
    """An HTTP request that blocks while the debugger holds the app stopped."""
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(http_get, port, path, 60)
    pool.shutdown(wait=False)
    return future


def stop_location(peer: WirePeer, timeout: float = 30) -> tuple[dict[str, Any], dict[str, Any]]:
    stop = peer.wait_event("stopped", timeout=timeout)["body"]
    return stop, top_frame(peer, stop["threadId"])


def at(frame: dict[str, Any], marker: str, file: str = "Program.cs") -> bool:
    return bool(frame["line"] == marker_line(WEBAPP, marker, file) and frame["source"]["path"].endswith(file))


def test_a_breakpoint_in_a_handler_stops_the_request_and_continue_answers_it() -> None:
    with debugged_webapp() as (peer, port):
        set_marker_breakpoints(peer, "Program.cs", "get-order")
        answer = request_in_background(port, "/orders/7")
        stop, frame = stop_location(peer)
        assert stop["reason"] == "breakpoint" and at(frame, "get-order")
        assert not answer.done(), "the request waits while the handler is stopped"
        ok(peer.request("continue", {"threadId": stop["threadId"]}))
        assert answer.result(timeout=30).status == 200


def test_step_in_enters_the_service_through_its_interface() -> None:
    with debugged_webapp() as (peer, port):
        set_marker_breakpoints(peer, "Program.cs", "get-order")
        answer = request_in_background(port, "/orders/7")
        stop, _ = stop_location(peer)
        ok(peer.request("stepIn", {"threadId": stop["threadId"]}))
        stepped, frame = stop_location(peer)
        assert stepped["reason"] == "step"
        # In the implementation behind IOrderRepository: its opening brace, as Visual Studio stops.
        assert "OrderRepository.Get" in frame["name"], frame
        assert frame["source"]["path"].endswith(SERVICES)
        assert marker_line(WEBAPP, "repository-get", SERVICES) - frame["line"] in (0, 1), frame
        set_marker_breakpoints(peer, "Program.cs")
        ok(peer.request("continue", {"threadId": stop["threadId"]}))
        assert answer.result(timeout=30).status == 200


def test_next_steps_over_awaits_in_the_service_and_leaves_no_step_behind() -> None:
    with debugged_webapp() as (peer, port):
        set_marker_breakpoints(peer, SERVICES, "compute-first")
        answer = request_in_background(port, "/orders/3/total")
        stop, frame = stop_location(peer)
        assert at(frame, "compute-first", SERVICES)
        set_marker_breakpoints(peer, SERVICES)
        lines = []
        for _ in range(2):  # the await line, then the line after it once the await resumed
            ok(peer.request("next", {"threadId": stop["threadId"]}))
            stop, frame = stop_location(peer)
            assert stop["reason"] == "step"
            lines.append(frame["line"])
        first = marker_line(WEBAPP, "compute-first", SERVICES)
        assert lines == [first + 1, first + 2], lines
        ok(peer.request("continue", {"threadId": stop["threadId"]}))
        assert answer.result(timeout=30).status == 200
        # No step armed anywhere: the next, unrelated requests run through without a stop.
        for path in ("/orders/4/total", "/orders/5"):
            assert http_get(port, path, timeout=20).status == 200
        assert not [e for e in peer.events if e["event"] == "stopped"]


def test_user_unhandled_stops_in_the_sync_and_the_async_endpoint() -> None:
    with debugged_webapp(["user-unhandled"]) as (peer, port):
        for path, marker, file in (("/fail/sync", "fail-sync-throw", "Program.cs"),
                                   ("/fail/async", "fail-async-throw", SERVICES)):
            answer = request_in_background(port, path)
            stop, frame = stop_location(peer)
            assert stop["reason"] == "exception", stop
            assert at(frame, marker, file), frame
            info = ok(peer.request("exceptionInfo", {"threadId": stop["threadId"]}))
            assert info["exceptionId"] == "System.InvalidOperationException"
            assert info["breakMode"] == "userUnhandled"
            ok(peer.request("continue", {"threadId": stop["threadId"]}))
            assert answer.result(timeout=30).status == 500


def test_attach_breakpoint_and_detach_while_serving_leaves_it_serving() -> None:
    with serving_webapp() as (proc, port):
        peer = WirePeer("--interpreter=vscode")
        try:
            ok(peer.request("initialize", {"adapterID": "coreclr"}))
            ok(peer.request("attach", {"processId": proc.pid}, timeout=30))
            [bp] = set_marker_breakpoints(peer, "Program.cs", "get-order")
            assert bp["verified"] is True
            ok(peer.request("configurationDone"))
            answer = request_in_background(port, "/orders/11")
            _, frame = stop_location(peer)
            assert at(frame, "get-order")
            ok(peer.request("disconnect", {"terminateDebuggee": False}, timeout=30))
            assert answer.result(timeout=30).status == 200, "the stopped request completes after detach"
            assert http_get(port, "/orders/12", timeout=10).status == 200, "and the app serves the next one"
        finally:
            peer.close()
        assert proc.poll() is None, "detach must not end the app"


def test_terminate_is_answered_at_once_and_ends_the_app_gracefully() -> None:
    with debugged_webapp() as (peer, _):
        started = time.monotonic()
        ok(peer.request("terminate", {}, timeout=10))
        answered = time.monotonic() - started
        exited = peer.wait_event("exited", timeout=15)["body"]
        peer.wait_event("terminated", timeout=15)
        assert answered < 1.0, f"terminate took {answered:.2f}s to answer"
        assert exited["exitCode"] != 137, "SIGTERM lets the host shut down; SIGKILL (137) is the last resort"


def test_a_stop_after_awaits_shows_the_awaiting_handler_and_stepping_off_the_end_arrives_there() -> None:
    """ComputeTotalAsync resumed on the thread pool: its awaiting endpoint lambda follows a
    label frame, named as written (`Program.<Main>$.AnonymousMethod__…`, no `<<Main>$>b__`),
    and a step over its closing brace arrives in that lambda on its await line, then the next."""
    with debugged_webapp() as (peer, port):
        set_marker_breakpoints(peer, SERVICES, "compute-last")
        answer = request_in_background(port, "/orders/3/total")
        stop, frame = stop_location(peer)
        assert at(frame, "compute-last", SERVICES)
        frames = ok(peer.request("stackTrace", {"threadId": stop["threadId"]}))["stackFrames"]
        names = [f["name"] for f in frames]
        assert names[0] == "WebApp.PricingService.ComputeTotalAsync()", names
        label = names.index("[Async] awaiting callers")
        handler = frames[label + 1]
        assert handler["name"].startswith("Program.<Main>$.AnonymousMethod__"), names
        assert handler["line"] == marker_line(WEBAPP, "get-total")
        assert not [n for n in names if ">b__" in n or n.startswith("MoveNext")], names
        set_marker_breakpoints(peer, SERVICES)
        thread = stop["threadId"]
        ok(peer.request("next", {"threadId": thread}))  # from `return total;` to the closing brace
        stop, frame = stop_location(peer)
        thread = stop["threadId"]
        assert frame["line"] == marker_line(WEBAPP, "compute-last", SERVICES) + 1
        ok(peer.request("next", {"threadId": thread}))  # off the end: the caller's await line, as a step out
        stop, frame = stop_location(peer)
        assert stop["reason"] == "step" and at(frame, "get-total"), frame
        ok(peer.request("next", {"threadId": stop["threadId"]}))
        stop, frame = stop_location(peer)
        assert stop["reason"] == "step" and at(frame, "get-total-after"), frame
        ok(peer.request("continue", {"threadId": stop["threadId"]}))
        assert answer.result(timeout=30).status == 200
        assert http_get(port, "/orders/4/total", timeout=20).status == 200
        assert not [e for e in peer.events if e["event"] == "stopped"]



def test_stepping_off_the_end_of_an_endpoint_lets_the_request_finish_and_leaves_no_step_behind() -> None:
    """The sync endpoint's handler is called by framework code without source: a step over
    its closing brace lets the request complete, and no later request stops."""
    with debugged_webapp() as (peer, port):
        set_marker_breakpoints(peer, "Program.cs", "get-order")
        answer = request_in_background(port, "/orders/7")
        stop, frame = stop_location(peer)
        set_marker_breakpoints(peer, "Program.cs")
        for _ in range(2):  # to the return, then to the closing brace
            ok(peer.request("next", {"threadId": stop["threadId"]}))
            stop, frame = stop_location(peer)
        assert frame["line"] == marker_line(WEBAPP, "get-order") + 2, frame
        ok(peer.request("next", {"threadId": stop["threadId"]}))  # off the end: into framework code
        assert answer.result(timeout=30).status == 200
        for path in ("/orders/4/total", "/orders/5", "/orders/6"):
            assert http_get(port, path, timeout=20).status == 200
        assert not [e for e in peer.events if e["event"] == "stopped"], "no step left armed"
