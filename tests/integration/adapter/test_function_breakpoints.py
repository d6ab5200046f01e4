"""setFunctionBreakpoints: by `Method`, `Type.Method` or `Namespace.Type.Method`, every
overload or those a parameter list picks, pending until a module loads a match, stopping on
entry; each name answered on its own. InspectSample `functions` mode calls both Compute
overloads; CompatSample's default mode calls three, a generic and a nested type's method."""

from __future__ import annotations

from support.adapter_session import ok, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll

TARGET = "InspectSample"
COMPAT = "CompatSample"


def test_a_function_breakpoint_stops_in_every_overload() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        init = ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        assert init["supportsFunctionBreakpoints"] is True
        ok(peer.request("launch", {"program": str(target_dll(TARGET)), "args": ["functions"]}, timeout=30))
        answer = ok(peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "InspectSample.Program.Compute"}]}))
        [breakpoint] = answer["breakpoints"]
        assert breakpoint["verified"] is True
        ok(peer.request("configurationDone"))
        lines = []
        for _ in range(2):
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            assert stopped["reason"] == "breakpoint" and stopped["hitBreakpointIds"] == [breakpoint["id"]]
            frame = top_frame(peer, stopped["threadId"])
            assert frame["name"] == "InspectSample.Program.Compute()"
            lines.append(frame["line"])
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert lines == [marker_line(TARGET, "compute_int"), marker_line(TARGET, "compute_string")]
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
    finally:
        peer.close()


def test_each_function_breakpoint_name_is_answered_on_its_own() -> None:
    """Good and bad names in one request, as VS Code sends what users typed: the good ones
    bind (a bare method, a parameter list picking one overload, a generic method, a nested
    type), each bad one is verified:false with its reason, and one that matches nothing
    yet is pending. Conditions and hit conditions hold on them."""
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll(COMPAT))}, timeout=30))
        names = [
            {"name": "Compute(int)", "condition": "n == 1"},
            {"name": "funcbp1"},
            {"name": "Program.Compute(int, string)"},
            {"name": "Compute(int"},
            {"name": "CompatSample.Program.Compute()", "hitCondition": "2"},
            {"name": "Compute(long)"},
            {"name": "Echo<T>"},
            {"name": "Program.Echo", "hitCondition": "often"},
            {"name": "Outer.Inner.Deep(int)", "condition": "n == 5"},
            {"name": "1abc"},
        ]
        answers = ok(peer.request("setFunctionBreakpoints", {"breakpoints": names}))["breakpoints"]
        assert len(answers) == len(names)
        by_name = {n["name"]: a for n, a in zip(names, answers, strict=True)}
        for good, marker in [("Compute(int)", "compute_int"), ("Program.Compute(int, string)", "compute_int_string"),
                             ("CompatSample.Program.Compute()", "compute_none"), ("Echo<T>", "echo"),
                             ("Outer.Inner.Deep(int)", "deep")]:
            assert by_name[good]["verified"] is True, by_name[good]
            assert by_name[good]["line"] == marker_line(COMPAT, marker), good
        for pending in ("funcbp1", "Compute(long)"):
            assert by_name[pending]["verified"] is False and by_name[pending]["message"].startswith("pending"), pending
        for bad, reason in [("Compute(int", "not a function name"), ("1abc", "not a function name"),
                            ("Program.Echo", "bad hitCondition")]:
            assert by_name[bad]["verified"] is False and reason in by_name[bad]["message"], bad
        ok(peer.request("configurationDone"))
        hits = []
        for _ in range(4):
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            assert stopped["reason"] == "breakpoint"
            hits.append((stopped["hitBreakpointIds"], top_frame(peer, stopped["threadId"])["line"]))
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert hits == [([by_name[name]["id"]], marker_line(COMPAT, marker)) for name, marker in [
            ("Compute(int)", "compute_int"), ("Program.Compute(int, string)", "compute_int_string"),
            ("Echo<T>", "echo"), ("Outer.Inner.Deep(int)", "deep")]]
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()


def test_a_name_pending_before_launch_binds_when_its_module_loads() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        before = ok(peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "Deep"}, {"name": "No.Such.Method"}]}))
        assert [b["verified"] for b in before["breakpoints"]] == [False, False]
        ok(peer.request("launch", {"program": str(target_dll(COMPAT))}, timeout=30))
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["hitBreakpointIds"] == [before["breakpoints"][0]["id"]]
        assert top_frame(peer, stopped["threadId"])["name"] == "CompatSample.Outer.Inner.Deep()"
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
    finally:
        peer.close()


def test_a_function_breakpoint_on_an_async_method_stops_on_the_first_line_of_its_body() -> None:
    """Its code runs in the state machine's MoveNext; the kickoff stub has no source."""
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll(COMPAT)), "args": ["captured"]}, timeout=30))
        [bp] = ok(peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "Captured(int)"}]}))["breakpoints"]
        body_start = marker_line(COMPAT, "captured_start")
        assert bp["verified"] is True and bp["line"] in (body_start - 1, body_start), bp
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["hitBreakpointIds"] == [bp["id"]]
        frame = top_frame(peer, stopped["threadId"])
        assert (frame["name"], frame["line"]) == ("CompatSample.Program.Captured()", bp["line"])
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"], "the breakpoint is on entry only, not at every resume"
    finally:
        peer.close()
