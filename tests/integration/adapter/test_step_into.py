"""Step in as Visual Studio users know it, on InspectSample's `stepin` and `async` modes:
an async method is entered at its opening brace like any other (not in its kickoff stub
or its state machine's dispatch),
property getters and operators are passed over unless `enableStepFiltering` is false,
`[DebuggerNonUserCode]` is stepped over under just-my-code and into with `justMyCode: false`,
and a step over the end of a resumed async method arrives in the caller that awaits it."""

from __future__ import annotations

from typing import Any

import pytest
from support.adapter_session import launched, ok, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll

TARGET = "InspectSample"


def step(peer: WirePeer, thread: int, kind: str) -> tuple[int, dict[str, Any]]:
    """One step; the thread it stopped on (an await may resume elsewhere) and its top frame."""
    ok(peer.request(kind, {"threadId": thread}))
    stopped = peer.wait_event("stopped", timeout=30)["body"]
    assert stopped["reason"] == "step", stopped
    return stopped["threadId"], top_frame(peer, stopped["threadId"])


def where(frame: dict[str, Any]) -> tuple[str, int]:
    return frame["name"], frame["line"]


def finish(peer: WirePeer, thread: int) -> None:
    set_breakpoints(peer, TARGET, [])
    ok(peer.request("continue", {"threadId": thread}))
    assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0


def test_step_in_passes_over_getters_and_operators_into_the_called_method() -> None:
    with launched(TARGET, args=["stepin"], markers=["stepin_filtered"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        thread, frame = step(peer, thread, "stepIn")
        assert where(frame) == ("InspectSample.Program.Describe()", marker_line(TARGET, "describe_body") - 1)
        finish(peer, thread)


def test_step_filtering_off_stops_in_the_getter_first() -> None:
    with launched(TARGET, args=["stepin"], markers=["stepin_filtered"], enableStepFiltering=False) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        thread, frame = step(peer, thread, "stepIn")
        assert "Owner" in frame["name"] and frame["name"].startswith("InspectSample.Account."), frame["name"]
        finish(peer, thread)


@pytest.mark.parametrize(("just_my_code", "arrives_in"), [(True, "next line"), (False, "NotMine")])
def test_non_user_code_is_stepped_over_only_under_just_my_code(just_my_code: bool, arrives_in: str) -> None:
    with launched(TARGET, args=["stepin"], markers=["stepin_nonuser"], justMyCode=just_my_code) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        thread, frame = step(peer, thread, "stepIn")
        if arrives_in == "NotMine":
            assert where(frame) == ("InspectSample.Program.NotMine()", marker_line(TARGET, "nonuser_body") - 1)
        else:
            assert where(frame) == ("InspectSample.Program.StepIn()", marker_line(TARGET, "stepin_async"))
        finish(peer, thread)


def test_a_non_boolean_step_flag_is_refused() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        answer = peer.request("launch", {"program": str(target_dll(TARGET)), "args": ["stepin"], "justMyCode": "no"},
                              timeout=30)
        assert not answer["success"] and "'justMyCode' must be true or false" in answer["message"]
    finally:
        peer.close()


def test_step_in_on_get_result_of_an_async_call_arrives_at_its_first_line() -> None:
    with launched(TARGET, args=["stepin"], markers=["stepin_async"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        thread, frame = step(peer, thread, "stepIn")
        # its opening brace, as a step into any method arrives (not the kickoff stub or state dispatch)
        assert where(frame) == ("InspectSample.Program.Doubled()", marker_line(TARGET, "doubled_first") - 1)
        thread, frame = step(peer, thread, "next")
        assert where(frame) == ("InspectSample.Program.Doubled()", marker_line(TARGET, "doubled_first"))
        finish(peer, thread)


def test_step_in_on_an_await_arrives_at_the_async_methods_first_line() -> None:
    with launched(TARGET, args=["async"], markers=["async_caller"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        thread, frame = step(peer, thread, "stepIn")
        assert where(frame) == ("InspectSample.Program.Steps()", marker_line(TARGET, "async_start") - 1)
        finish(peer, thread)


def test_step_over_the_end_of_a_resumed_async_method_arrives_on_the_callers_await() -> None:
    """Steps(1) resumed on the thread pool after its awaits; its caller awaits it. The step
    off its end stops on the caller's await line (as a step out does, and as a step off the
    end of any method stops on its caller's call); the next one goes on past it."""
    last = marker_line(TARGET, "async_after_completed")
    with launched(TARGET, args=["async"], markers=[{"marker": "async_after_completed", "condition": "start == 1"}]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        set_breakpoints(peer, TARGET, [])
        thread, frame = step(peer, thread, "next")
        assert where(frame) == ("InspectSample.Program.Steps()", last + 1)  # return value;
        thread, frame = step(peer, thread, "next")
        assert where(frame) == ("InspectSample.Program.Steps()", last + 2)  # }
        thread, frame = step(peer, thread, "next")
        assert where(frame) == ("InspectSample.Program.Caller()", marker_line(TARGET, "async_caller"))
        thread, frame = step(peer, thread, "next")
        assert where(frame) == ("InspectSample.Program.Caller()", marker_line(TARGET, "async_caller") + 1)
        ok(peer.request("continue", {"threadId": thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"], "no step left armed"
