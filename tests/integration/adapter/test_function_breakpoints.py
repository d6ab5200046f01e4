"""setFunctionBreakpoints: by Namespace.Type.Method, every overload, pending until the
module loads, stopping on entry. InspectSample `functions` mode calls both Compute overloads."""

from __future__ import annotations

from support.adapter_session import ok, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll

TARGET = "InspectSample"


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


def test_function_breakpoint_names_are_checked() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        bad = peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "Compute"}]})
        assert bad["success"] is False and "Namespace.Type.Method" in bad["message"]
        pending = ok(peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "No.Such.Method"}]}))
        assert pending["breakpoints"][0]["verified"] is False
    finally:
        peer.close()
