"""Where a source breakpoint binds, netcoredbg-style: a relative path is normalised (`.` and
`..`) and means the document sharing the longest path suffix with it; a path two documents
fit equally well is verified:false naming both; a line inside a [DebuggerHidden] method
is never a breakpoint. CompatSample has Program.cs and Nested/Program.cs in one module."""

from __future__ import annotations

from typing import Any

from support.adapter_session import ok, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll, target_source

TARGET = "CompatSample"


def breakpoints_at(peer: WirePeer, path: str, marker: str, file: str = "Program.cs") -> list[dict[str, Any]]:
    body = ok(peer.request("setBreakpoints", {"source": {"path": path},
                                              "breakpoints": [{"line": marker_line(TARGET, marker, file)}]}))
    return list(body["breakpoints"])


def launch(mode: str) -> WirePeer:
    peer = WirePeer("--interpreter=vscode")
    ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
    ok(peer.request("launch", {"program": str(target_dll(TARGET)), "args": [mode]}, timeout=30))
    return peer


def test_relative_paths_bind_by_their_longest_unique_suffix() -> None:
    peer = launch("nested")
    try:
        [nested] = breakpoints_at(peer, "./CompatSample/Other/../Nested/./Program.cs", "nested_run", "Nested/Program.cs")
        assert nested["verified"] is True and nested["line"] == marker_line(TARGET, "nested_run", "Nested/Program.cs")
        [main] = breakpoints_at(peer, "CompatSample/Program.cs", "main_first")
        assert main["verified"] is True and main["line"] == marker_line(TARGET, "main_first")
        ok(peer.request("configurationDone"))
        lines = []
        for _ in range(2):
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            frame = top_frame(peer, stopped["threadId"])
            lines.append((stopped["hitBreakpointIds"], frame["source"]["path"], frame["line"]))
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert lines == [
            ([main["id"]], str(target_source(TARGET)), main["line"]),
            ([nested["id"]], str(target_source(TARGET, "Nested/Program.cs")), nested["line"]),
        ]
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
    finally:
        peer.close()


def test_a_file_name_two_documents_share_is_ambiguous_and_names_them() -> None:
    peer = launch("nested")
    try:
        [bp] = breakpoints_at(peer, "Program.cs", "main_first")
        assert bp["verified"] is False
        assert "ambiguous" in bp["message"]
        assert str(target_source(TARGET)) in bp["message"]
        assert str(target_source(TARGET, "Nested/Program.cs")) in bp["message"]
        ok(peer.request("configurationDone"))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()


def test_a_line_in_a_debugger_hidden_method_is_never_a_breakpoint() -> None:
    peer = launch("hidden")
    try:
        [bp] = breakpoints_at(peer, str(target_source(TARGET)), "hidden")
        assert bp["verified"] is False and "DebuggerHidden" in bp["message"]
        functions = ok(peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "Program.Hidden"}]}))
        assert functions["breakpoints"][0]["verified"] is False
        ok(peer.request("configurationDone"))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]
    finally:
        peer.close()
