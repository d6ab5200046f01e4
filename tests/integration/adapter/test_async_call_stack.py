"""Async logical call stacks on InspectSample's `async` mode: stopped in Steps(1) after it
resumed from the thread pool, the stack shows, after Steps' own frame, a label frame and
Caller (which awaits it) at its await, with source; before its first await, Caller is a
physical frame below and no label appears."""

from __future__ import annotations

from typing import Any

from support.adapter_session import launched, ok
from support.dap_wire import WirePeer
from support.targets import marker_line, target_source

TARGET = "InspectSample"


def stack(peer: WirePeer, thread: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = ok(peer.request("stackTrace", {"threadId": thread}))["stackFrames"]
    return frames


def test_a_resumed_async_method_shows_its_awaiting_caller_after_a_label() -> None:
    marker = {"marker": "async_after_yield", "condition": "start == 1"}
    with launched(TARGET, args=["async"], markers=[marker]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        frames = stack(peer, thread)
        names = [f["name"] for f in frames]
        assert names[0] == "InspectSample.Program.Steps()"
        label = names.index("[Async] awaiting callers")
        assert frames[label]["presentationHint"] == "label"
        assert label == 1, "right after the method's own frame, before the thread pool's"
        caller = frames[label + 1]
        assert caller["name"] == "InspectSample.Program.Caller()"
        assert caller["line"] == marker_line(TARGET, "async_caller")
        assert caller["source"]["path"] == str(target_source(TARGET))
        assert "Program.Main()" not in names, "Main awaits through Task.WhenAll, not a state machine"
        total = ok(peer.request("stackTrace", {"threadId": thread}))["totalFrames"]
        assert total == len(frames)
        paged = ok(peer.request("stackTrace", {"threadId": thread, "startFrame": 1, "levels": 2}))["stackFrames"]
        assert [f["name"] for f in paged] == names[1:3]
        assert ok(peer.request("scopes", {"frameId": caller["id"]}))["scopes"] == []


def test_before_its_first_await_the_caller_is_a_physical_frame_and_no_label_appears() -> None:
    marker = {"marker": "async_start", "condition": "start == 1"}
    with launched(TARGET, args=["async"], markers=[marker]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        names = [f["name"] for f in stack(peer, thread)]
        assert "[Async] awaiting callers" not in names
        assert "InspectSample.Program.Caller()" in names and "InspectSample.Program.Main()" in names
