"""Stepping over, into and out of AdapterSample's call chain, and pausing a busy loop,
under our adapter."""

from __future__ import annotations

from pathlib import Path

from support.adapter_session import frame_variables, launched, ok, top_frame
from support.targets import marker_line, wait_for_file

TARGET = "AdapterSample"


def step(peer, thread: int, kind: str) -> dict:  # type: ignore[no-untyped-def]
    ok(peer.request(kind, {"threadId": thread}))
    stopped = peer.wait_event("stopped", timeout=30)["body"]
    assert stopped["reason"] == "step"
    assert stopped["threadId"] == thread
    return top_frame(peer, thread)


def test_step_over_runs_the_whole_call_and_stops_on_the_next_line() -> None:
    with launched(TARGET, markers=["call"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        frame = step(peer, thread, "next")
        assert frame["name"] == "AdapterSample.Program.Main()"
        assert marker_line(TARGET, "call") < frame["line"] < marker_line(TARGET, "loop")
        assert frame_variables(peer, frame["id"])["total"]["value"] == "62"


def test_step_into_enters_the_callee_and_step_out_returns_to_the_caller() -> None:
    with launched(TARGET, markers=["outer"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        frame = step(peer, thread, "stepIn")
        assert frame["name"] == "AdapterSample.Chain.Middle()"
        assert marker_line(TARGET, "middle") - 1 <= frame["line"] <= marker_line(TARGET, "middle")
        frame = step(peer, thread, "stepOut")
        assert frame["name"] == "AdapterSample.Chain.Outer()"
        assert frame["line"] == marker_line(TARGET, "outer")


def test_stepping_past_the_end_of_main_lets_the_process_finish() -> None:
    with launched(TARGET, markers=["exit"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        frame = step(peer, thread, "stepIn")
        assert (frame["name"], frame["line"]) == ("AdapterSample.Program.Main()", marker_line(TARGET, "exit") + 1)
        ok(peer.request("stepIn", {"threadId": thread}))
        # Main returns into the runtime: no code with source is left, so the process just ends.
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]


def test_pause_stops_a_busy_loop_where_it_runs(tmp_path: Path) -> None:
    counter = tmp_path / "counter.txt"
    with launched("DebuggeeLoop", args=[str(counter)]) as peer:
        wait_for_file(counter)  # the Spinner thread is started and named by now
        running = peer.request("stackTrace", {"threadId": 1})
        assert running["success"] is False and "running" in running["message"]
        ok(peer.request("pause"))
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "pause"
        names = {t["name"] for t in ok(peer.request("threads"))["threads"]}
        assert {"Main Thread", "Spinner"} <= names
        frames = ok(peer.request("stackTrace", {"threadId": stopped["threadId"]}))["stackFrames"]
        assert any(f.get("source", {}).get("path", "").endswith("DebuggeeLoop/Program.cs") for f in frames)
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))


def test_a_continue_answers_and_announces_continued_before_the_stop_it_leads_to() -> None:
    """Each continue at a breakpoint in a tight loop: its response and `continued` come on
    the wire before the next `stopped`, so a client tracking state never sees a stale one."""
    with launched(TARGET, markers=["loop"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        for _ in range(5):
            sent = peer.send("continue", {"threadId": stopped["threadId"]})
            order = []
            while "stopped" not in order:
                message = peer.next_message(timeout=15)
                if message.get("type") == "response" and message.get("request_seq") == sent:
                    assert message["success"], message
                    order.append("response")
                elif message.get("type") == "event" and message["event"] in ("continued", "stopped"):
                    order.append(message["event"])
                    if message["event"] == "stopped":
                        stopped = message["body"]
            assert order == ["response", "continued", "stopped"]
