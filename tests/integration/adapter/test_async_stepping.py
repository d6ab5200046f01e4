"""Async methods under our adapter: InspectSample's `Steps` awaits a delay, a yield and a
finished task while a second call of it runs alongside. Its frame shows the method's own
name, arguments and locals (not the state machine's fields), and stepping over each await
arrives at the next line of the same call, on whichever thread resumed it."""

from __future__ import annotations

from support.adapter_session import (
    frame_variables,
    launched,
    ok,
    output_of,
    set_breakpoints,
    top_frame,
)
from support.dap_wire import WirePeer
from support.targets import marker_line

TARGET = "InspectSample"


def value_in(peer: WirePeer, frame_id: int, expression: str) -> str:
    result: str = ok(peer.request("evaluate", {"expression": expression, "frameId": frame_id}, timeout=30))["result"]
    return result


def test_stepping_over_awaits_follows_the_same_call_to_each_next_line() -> None:
    start = marker_line(TARGET, "async_start")
    with launched(TARGET, args=["async"], markers=[{"marker": "async_start", "condition": "start == 1"}]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        frame = top_frame(peer, thread)
        assert (frame["name"], frame["line"]) == ("InspectSample.Program.Steps()", start)
        names = list(frame_variables(peer, frame["id"]))
        assert names == ["start", "value"], names
        set_breakpoints(peer, TARGET, [])
        # line after each step, and `value` there: the delay and the yield resume on pool threads
        expected = [(start + 1, "1"), (start + 2, "1"), (start + 3, "2"), (start + 4, "2"), (start + 5, "4"),
                    (start + 6, "4"), (start + 7, "7")]
        for line, value in expected:
            ok(peer.request("next", {"threadId": thread}))
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            assert stopped["reason"] == "step"
            thread = stopped["threadId"]
            frame = top_frame(peer, thread)
            assert (frame["name"], frame["line"]) == ("InspectSample.Program.Steps()", line)
            assert value_in(peer, frame["id"], "start") == "1", "the same call, not the one that started at 10"
            assert value_in(peer, frame["id"], "value") == value
        ok(peer.request("continue", {"threadId": thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        printed = output_of(peer, "stdout")
        assert "async 23\n" in printed  # Steps(1) = 7, Steps(10) = 16: every line ran once


def test_stepping_out_of_an_async_method_arrives_in_the_caller_that_awaits_it() -> None:
    """Before its first await the caller is still on the stack; after it, only the task's
    completion leads back (the runtime's wait-completion notification)."""
    caller = ("InspectSample.Program.Caller()", marker_line(TARGET, "async_caller"))
    for marker in ("async_start", "async_after_yield"):
        with launched(TARGET, args=["async"], markers=[{"marker": marker, "condition": "start == 1"}]) as peer:
            thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
            assert top_frame(peer, thread)["line"] == marker_line(TARGET, marker)
            set_breakpoints(peer, TARGET, [])
            ok(peer.request("stepOut", {"threadId": thread}))
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            assert stopped["reason"] == "step", marker
            frame = top_frame(peer, stopped["threadId"])
            assert (frame["name"], frame["line"]) == caller, marker
            ok(peer.request("continue", {"threadId": stopped["threadId"]}))
            assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
            assert not [e for e in peer.events if e["event"] == "stopped"]
