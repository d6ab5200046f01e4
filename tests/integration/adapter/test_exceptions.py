"""Exception breakpoints: `all` stops where an exception is thrown even though the code
catches it; `user-unhandled` stops where one is about to go unhandled; exceptionInfo tells
its type, message, stack and inner exception. InspectSample `caught` / `unhandled` modes."""

from __future__ import annotations

from typing import Any

from support.adapter_session import launched, ok, output_of, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll

TARGET = "InspectSample"


def launch_with_filters(mode: str, filters: list[str], options: list[dict[str, Any]] | None = None) -> WirePeer:
    peer = WirePeer("--interpreter=vscode")
    init = ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
    assert {f["filter"] for f in init["exceptionBreakpointFilters"]} == {"all", "user-unhandled"}
    assert init["supportsExceptionInfoRequest"] is True
    ok(peer.request("launch", {"program": str(target_dll(TARGET)), "args": [mode]}, timeout=30))
    arguments: dict[str, Any] = {"filters": filters}
    if options is not None:
        arguments["filterOptions"] = options
    ok(peer.request("setExceptionBreakpoints", arguments))
    ok(peer.request("configurationDone"))
    return peer


def test_all_stops_at_a_first_chance_exception_the_code_catches() -> None:
    peer = launch_with_filters("caught", ["all"])
    try:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "exception"
        assert "System.InvalidOperationException: caught on purpose" in stopped["description"]
        frame = top_frame(peer, stopped["threadId"])
        assert frame["name"] == "InspectSample.Program.Fail()"
        info = ok(peer.request("exceptionInfo", {"threadId": stopped["threadId"]}))
        assert info["exceptionId"] == "System.InvalidOperationException"
        assert info["description"] == "caught on purpose"
        assert info["breakMode"] == "always"
        assert "InspectSample.Program.Caught()" in info["details"]["stackTrace"]
        scope = ok(peer.request("scopes", {"frameId": frame["id"]}))["scopes"][0]
        first = ok(peer.request("variables", {"variablesReference": scope["variablesReference"]}))["variables"][0]
        assert (first["name"], first["type"]) == ("$exception", "System.InvalidOperationException")
        fields = {v["name"]: v["value"] for v in ok(peer.request(
            "variables", {"variablesReference": first["variablesReference"]}))["variables"]}
        assert fields["_message"] == '"caught on purpose"'
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
    finally:
        peer.close()


def test_a_type_condition_skips_other_exception_types() -> None:
    peer = launch_with_filters("caught", [], [{"filterId": "all", "condition": "System.ArgumentException"}])
    try:
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()


def test_without_filters_a_caught_exception_never_stops() -> None:
    peer = launch_with_filters("caught", [])
    try:
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()


def test_user_unhandled_stops_before_the_process_dies_and_tells_the_inner_exception() -> None:
    peer = launch_with_filters("unhandled", ["user-unhandled"])
    try:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "exception"
        info = ok(peer.request("exceptionInfo", {"threadId": stopped["threadId"]}))
        assert info["exceptionId"] == "System.ApplicationException"
        assert info["breakMode"] == "unhandled"
        assert info["details"]["message"] == "nobody catches this"
        inner = info["details"]["innerException"][0]
        assert inner["fullTypeName"] == "System.InvalidOperationException"
        assert inner["message"] == "the cause"
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] != 0
    finally:
        peer.close()


def test_exception_info_at_a_breakpoint_stop_is_an_error() -> None:
    with launched(TARGET, args=["caught"], markers=["after_catch"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "breakpoint"
        answer = peer.request("exceptionInfo", {"threadId": stopped["threadId"]})
        assert answer["success"] is False and "not stopped at an exception" in answer["message"]
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))


def test_user_unhandled_stops_at_the_throw_in_an_async_method_whose_task_carries_it() -> None:
    """The async method's own catch-all hands the exception to its task: for the user's code
    that is unhandled, so the stop is at the throw (Main catches it later from the task)."""
    peer = launch_with_filters("async_throw", ["user-unhandled"])
    try:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "exception"
        assert "not handled in user code" in stopped["description"] and "async failure" in stopped["description"]
        frame = top_frame(peer, stopped["threadId"])
        assert (frame["name"], frame["line"]) == ("InspectSample.Program.Failing()", marker_line(TARGET, "async_throw"))
        info = ok(peer.request("exceptionInfo", {"threadId": stopped["threadId"]}))
        assert (info["exceptionId"], info["breakMode"]) == ("System.InvalidOperationException", "userUnhandled")
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"], "Main's own catch is not a stop"
        printed = output_of(peer)
        assert "caught in Main: async failure" in printed
    finally:
        peer.close()


def test_without_filters_an_exception_about_to_kill_the_process_still_stops() -> None:
    """As netcoredbg and vsdbg do: the user sees where the process died."""
    peer = launch_with_filters("unhandled", [])
    try:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "exception"
        info = ok(peer.request("exceptionInfo", {"threadId": stopped["threadId"]}))
        assert (info["exceptionId"], info["breakMode"]) == ("System.ApplicationException", "unhandled")
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] != 0
    finally:
        peer.close()


def launch_compat(mode: str, filters: list[str], just_my_code: bool) -> WirePeer:
    peer = WirePeer("--interpreter=vscode")
    ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
    ok(peer.request("launch", {"program": str(target_dll("CompatSample")), "args": [mode],
                               "justMyCode": just_my_code}, timeout=30))
    ok(peer.request("setExceptionBreakpoints", {"filters": filters}))
    ok(peer.request("configurationDone"))
    return peer


def test_user_unhandled_stops_where_user_code_throws_to_a_debugger_non_user_code_catcher() -> None:
    """CompatSample `nonuser`: Throwing() (user code) throws; Guard, a [DebuggerNonUserCode]
    class with source, catches. Under just-my-code that catcher is not the user's code."""
    peer = launch_compat("nonuser", ["user-unhandled"], just_my_code=True)
    try:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "exception" and "not handled in user code" in stopped["description"]
        frame = top_frame(peer, stopped["threadId"])
        assert (frame["name"], frame["line"]) == ("CompatSample.Program.Throwing()", marker_line("CompatSample", "throwing"))
        info = ok(peer.request("exceptionInfo", {"threadId": stopped["threadId"]}))
        assert (info["exceptionId"], info["breakMode"]) == ("System.InvalidOperationException", "userUnhandled")
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "guarded from user code\n" in output_of(peer)
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()


def test_without_just_my_code_a_debugger_non_user_code_catcher_is_user_code() -> None:
    peer = launch_compat("nonuser", ["user-unhandled"], just_my_code=False)
    try:
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "guarded from user code\n" in output_of(peer)
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()


def test_a_leading_exclamation_mark_negates_the_whole_type_list() -> None:
    """As VS Code's C# extension, vsdbg and netcoredbg read a filter's condition: `!A, B` is
    every type but A and B (CompatSample `filters` throws a NullReferenceException, an
    ArgumentNullException and an InvalidOperationException, catching each)."""
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll("CompatSample")), "args": ["filters"]}, timeout=30))
        condition = "!System.NullReferenceException, System.ArgumentNullException"
        ok(peer.request("setExceptionBreakpoints", {"filters": [], "filterOptions": [
            {"filterId": "all", "condition": condition}]}))
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "exception" and "InvalidOperationException: invalid" in stopped["description"]
        frame = top_frame(peer, stopped["threadId"])
        assert frame["line"] == marker_line("CompatSample", "filters_throw", "Failures.cs")
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]
        assert output_of(peer, "stdout").count("caught ") == 3
    finally:
        peer.close()


def first_frame_with_source(peer: WirePeer, thread: int) -> dict[str, Any]:
    """The frame VS Code shows at a stop: the first one with source."""
    frames = ok(peer.request("stackTrace", {"threadId": thread}))["stackFrames"]
    return next(f for f in frames if f.get("source", {}).get("path"))


def test_an_exception_leaving_async_main_stops_at_the_users_line_once() -> None:
    """Caught by async Main's own catch-all, it is rethrown in the compiler's `<Main>` (no
    source) and kills the process: the unhandled stop is where it left the user's code, at
    the throw before Main's first await, at Main's await after it; there is no second stop."""
    where = {"crash": ("CompatSample.Program.Throwing()", marker_line("CompatSample", "throwing")),
             "async_crash": ("CompatSample.Program.Main()", marker_line("CompatSample", "async_crash_await"))}
    for mode, (name, line) in where.items():
        peer = launch_compat(mode, [], just_my_code=True)
        try:
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            assert stopped["reason"] == "exception", mode
            info = ok(peer.request("exceptionInfo", {"threadId": stopped["threadId"]}))
            assert (info["exceptionId"], info["breakMode"]) == ("System.InvalidOperationException", "unhandled")
            frame = first_frame_with_source(peer, stopped["threadId"])
            assert (frame["name"], frame["line"]) == (name, line), mode
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
            assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] != 0
            assert not [e for e in peer.events if e["event"] == "stopped"], mode
        finally:
            peer.close()
