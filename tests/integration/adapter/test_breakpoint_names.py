"""Where a source breakpoint binds, netcoredbg-style: a relative path is normalised (`.` and
`..`) and means the document sharing the longest path suffix with it; a path two documents
fit equally well is verified:false naming both; a line inside a [DebuggerHidden] method
is never a breakpoint, nor, under just my code, one in [DebuggerStepThrough] or
[DebuggerNonUserCode] code. CompatSample has Program.cs and Nested/Program.cs in one module."""

from __future__ import annotations

from typing import Any

from support.adapter_session import (
    launched,
    next_stop_or_end,
    ok,
    output_of,
    set_breakpoints,
    top_frame,
)
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


NOT_MINE = ("notmine_step_through", "notmine_non_user", "notmine_type")


def test_just_my_code_sets_no_breakpoint_in_code_marked_as_not_the_users() -> None:
    """[DebuggerStepThrough] and [DebuggerNonUserCode] on a method or on its type: under just
    my code the lines there are not breakpoints (as Visual Studio's rule says); without it
    they stop as any other line."""
    for just_my_code in (True, False):
        with launched(TARGET, args=["notmine"], stop_at_entry=True, justMyCode=just_my_code) as peer:
            thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
            bound = set_breakpoints(peer, TARGET, ["notmine_run", *NOT_MINE], "NotMine.cs")
            assert [bp["verified"] for bp in bound] == [True, *[not just_my_code] * 3], just_my_code
            if just_my_code:
                assert "[DebuggerStepThrough]" in bound[1]["message"] and "justMyCode" in bound[1]["message"]
                assert "[DebuggerNonUserCode]" in bound[2]["message"]
                assert "[DebuggerStepThrough]" in bound[3]["message"]
            functions = ok(peer.request("setFunctionBreakpoints", {"breakpoints": [{"name": "NotMine.NonUserMethod"}]}))
            assert functions["breakpoints"][0]["verified"] is not just_my_code
            stops = []
            ok(peer.request("continue", {"threadId": thread}))
            while (event := next_stop_or_end(peer, timeout=30))["event"] == "stopped":
                stops.append(top_frame(peer, event["body"]["threadId"])["line"])
                ok(peer.request("continue", {"threadId": event["body"]["threadId"]}))
            assert "notmine 17\n" in output_of(peer, "stdout")
            shown = ["notmine_run", *([] if just_my_code else ["notmine_step_through", "notmine_non_user_entry",
                                                               "notmine_non_user", "notmine_type"])]
            assert stops == [marker_line(TARGET, m, "NotMine.cs") for m in shown], just_my_code
