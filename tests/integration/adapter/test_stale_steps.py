"""No step outlives the stop that ended it: a step that lands on a breakpoint, or is
interrupted by one, never ends a later run (a queued step-complete is recognised as stale)."""

from __future__ import annotations

from support.adapter_session import launched, ok, top_frame
from support.targets import marker_line

TARGET = "AgentStory"


def next_stop(peer) -> dict:  # type: ignore[no-untyped-def]
    return peer.wait_event("stopped", timeout=30)["body"]


def test_continue_after_a_step_that_landed_on_a_breakpoint_stops_at_the_next_breakpoint() -> None:
    with launched(TARGET, markers=["price", "price-return"]) as peer:
        thread = next_stop(peer)["threadId"]
        ok(peer.request("next", {"threadId": thread}))
        landed = next_stop(peer)
        assert top_frame(peer, thread)["line"] == marker_line(TARGET, "price-return")
        assert landed["reason"] in ("breakpoint", "step")
        ok(peer.request("continue", {"threadId": thread}))
        after = next_stop(peer)
        assert after["reason"] == "breakpoint", after
        assert top_frame(peer, thread)["line"] == marker_line(TARGET, "price")


def test_a_step_interrupted_by_a_breakpoint_in_the_callee_never_ends_a_later_run() -> None:
    with launched(TARGET, markers=["call", "price"]) as peer:
        thread = next_stop(peer)["threadId"]
        ok(peer.request("next", {"threadId": thread}))  # over checkout.Process: stops inside, at price
        interrupted = next_stop(peer)
        assert interrupted["reason"] == "breakpoint"
        assert top_frame(peer, thread)["line"] == marker_line(TARGET, "price")
        ok(peer.request("setBreakpoints", {"source": {"path": str(_source())}, "breakpoints": []}))
        ok(peer.request("continue", {"threadId": thread}))
        # Nothing else may stop the program: the old step over Process must not fire in Main.
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert not [e for e in peer.events if e["event"] == "stopped"]


def _source():  # type: ignore[no-untyped-def]
    from support.targets import target_source
    return target_source(TARGET)
