"""Launching a debuggee under our adapter: breakpoints, stacks, output, exit codes,
stopAtEntry, hit conditions and log points, against the real AdapterSample program."""

from __future__ import annotations

from support.adapter_session import launched, ok, output_of, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll

TARGET = "AdapterSample"


def wait_exit_code(peer: WirePeer) -> int:
    code: int = peer.wait_event("exited", timeout=30)["body"]["exitCode"]
    peer.wait_event("terminated", timeout=30)
    return code


def test_a_breakpoint_stops_on_its_line_with_the_whole_call_chain() -> None:
    with launched(TARGET, markers=["inner"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "breakpoint"
        assert stopped["allThreadsStopped"] is True
        assert len(stopped["hitBreakpointIds"]) == 1
        body = ok(peer.request("stackTrace", {"threadId": stopped["threadId"]}))
        frames = body["stackFrames"]
        names = [f["name"] for f in frames]
        assert names[:4] == ["AdapterSample.Chain.Inner()", "AdapterSample.Chain.Middle()",
                             "AdapterSample.Chain.Outer()", "AdapterSample.Program.Main()"]
        assert [f["line"] for f in frames[:4]] == [marker_line(TARGET, m) for m in ("inner", "middle", "outer", "call")]
        assert frames[0]["source"]["path"].endswith("AdapterSample/Program.cs")
        assert frames[0]["moduleId"] == str(target_dll(TARGET)), "moduleId is the id `modules` gives the module: its path"
        assert body["totalFrames"] == len(frames)

        page = ok(peer.request("stackTrace", {"threadId": stopped["threadId"], "startFrame": 1, "levels": 2}))
        assert [f["name"] for f in page["stackFrames"]] == names[1:3]
        assert page["totalFrames"] == body["totalFrames"]


def test_output_events_carry_the_debuggee_output_and_exited_its_exit_code() -> None:
    with launched(TARGET, args=["", "7"]) as peer:
        assert wait_exit_code(peer) == 7
        text = output_of(peer)
        assert "locals ready\n" in text
        assert "total 107\n" in text


def test_loaded_modules_are_announced_and_listed_with_their_symbol_status() -> None:
    with launched(TARGET, markers=["inner"]) as peer:
        peer.wait_event("stopped", timeout=30)
        announced = {e["body"]["module"]["name"]: e["body"]["module"] for e in peer.events if e["event"] == "module"}
        program = announced["AdapterSample.dll"]
        assert program["symbolStatus"] == "Symbols loaded." and program["isUserCode"] is True
        assert program["path"] == str(target_dll(TARGET))
        assert announced["System.Private.CoreLib.dll"]["symbolStatus"] == "Symbols not found."
        listed = ok(peer.request("modules", {}))
        assert listed["totalModules"] == len(listed["modules"]) >= len(announced)
        page = ok(peer.request("modules", {"startModule": 1, "moduleCount": 2}))
        assert page["modules"] == listed["modules"][1:3] and page["totalModules"] == listed["totalModules"]


def test_an_apphost_launches_like_a_dll() -> None:
    apphost = target_dll(TARGET).with_suffix("")
    peer = WirePeer()
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        ok(peer.request("launch", {"program": str(apphost), "args": ["", "5"], "cwd": str(apphost.parent)}, timeout=30))
        ok(peer.request("configurationDone"))
        assert wait_exit_code(peer) == 5
        assert "locals ready\n" in output_of(peer)
    finally:
        peer.close()


def test_stop_at_entry_stops_in_main_before_any_user_code() -> None:
    with launched(TARGET, args=["", "3"], stop_at_entry=True) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "entry"
        assert top_frame(peer, stopped["threadId"])["name"] == "AdapterSample.Program.Main()"
        assert "locals ready" not in output_of(peer)
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert wait_exit_code(peer) == 3


def test_a_hit_condition_stops_exactly_at_the_nth_hit() -> None:
    with launched(TARGET, markers=[{"marker": "loop", "hitCondition": "4"}]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        result = ok(peer.request("evaluate", {"expression": "i", "frameId": frame["id"]}))
        assert result["result"] == "3"
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert wait_exit_code(peer) == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]


def test_a_modulo_hit_condition_stops_at_every_nth_hit() -> None:
    with launched(TARGET, markers=[{"marker": "loop", "hitCondition": "% 3"}]) as peer:
        seen = []
        for _ in range(3):
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            frame = top_frame(peer, stopped["threadId"])
            seen.append(ok(peer.request("evaluate", {"expression": "i", "frameId": frame["id"]}))["result"])
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert seen == ["2", "5", "8"]
        assert wait_exit_code(peer) == 0


def test_a_log_point_writes_output_and_never_stops() -> None:
    with launched(TARGET, markers=[{"marker": "loop", "logMessage": "tick"}]) as peer:
        assert wait_exit_code(peer) == 0
        assert output_of(peer).count("tick\n") == 10
        assert not [e for e in peer.events if e["event"] == "stopped"]


def test_replacing_a_files_breakpoints_clears_the_old_ones() -> None:
    with launched(TARGET, markers=["loop"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert set_breakpoints(peer, TARGET, []) == []
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert wait_exit_code(peer) == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]


def test_a_breakpoint_where_no_code_exists_stays_unverified() -> None:
    with launched(TARGET, markers=["exit"]) as peer:
        body = ok(peer.request("setBreakpoints", {"source": {"path": "/nowhere/Missing.cs"},
                                                  "breakpoints": [{"line": 3}]}))
        assert body["breakpoints"][0]["verified"] is False
        assert "message" in body["breakpoints"][0]
        peer.wait_event("stopped", timeout=30)
        past_the_end = set_breakpoints(peer, TARGET, [])  # a file's set can also be emptied while stopped
        assert past_the_end == []


def test_a_debuggee_killed_while_stopped_ends_the_session_and_requests_still_get_answers() -> None:
    import os
    import signal

    with launched(TARGET, markers=["locals"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        pid = peer.wait_event("process", timeout=5)["body"]["systemProcessId"]
        os.kill(pid, signal.SIGKILL)
        exited = peer.wait_event("exited", timeout=15)["body"]
        assert exited["exitCode"] == 128 + signal.SIGKILL  # as a shell reports a signal death
        peer.wait_event("terminated", timeout=15)
        answer = peer.request("stackTrace", {"threadId": stopped["threadId"]}, timeout=10)
        assert answer["success"] is False and "exited" in answer["message"]
        ok(peer.request("disconnect", {}, timeout=10))


def test_every_launch_reports_its_exit_code_promptly_after_the_last_continue() -> None:
    """libmscordbi reaps its debuggee with waitpid; when the debuggee was the adapter's own
    child, about one launch in twenty lost its exit code (`exited` 60 s late). Launches now
    run under a waiting shell; each one must report at once."""
    for code in range(12):
        with launched(TARGET, args=["", str(code)], markers=["inner"]) as peer:
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
            assert peer.wait_event("exited", timeout=5)["body"]["exitCode"] == code
            peer.wait_event("terminated", timeout=5)
