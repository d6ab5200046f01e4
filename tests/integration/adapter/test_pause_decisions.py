"""A pause that arrives while the adapter decides whether a breakpoint stops (here a
condition that calls a 200 ms method in the debuggee) still stops the process, and it
stays stopped. InspectSample `hot` mode loops through the conditional breakpoint."""

from __future__ import annotations

import time

from support.adapter_session import launched, ok
from support.dap_wire import WirePeer

TARGET = "InspectSample"


def stack_names(peer: WirePeer, thread_id: int) -> list[str]:
    return [f["name"] for f in ok(peer.request("stackTrace", {"threadId": thread_id}))["stackFrames"]]


def test_a_pause_during_a_slow_condition_stops_and_stays_stopped() -> None:
    with launched(TARGET, args=["hot"], markers=[{"marker": "hot", "condition": "Slow() == 0"}]) as peer:
        time.sleep(1.0)  # the loop is deciding the condition most of the time now
        ok(peer.request("pause", {"threadId": 0}))
        stopped = peer.wait_event("stopped", timeout=15)["body"]
        assert stopped["reason"] == "pause"
        names = stack_names(peer, stopped["threadId"])
        assert "InspectSample.Program.Hot()" in names
        time.sleep(1.0)
        assert not [e for e in peer.events if e["event"] in ("stopped", "continued")]
        assert stack_names(peer, stopped["threadId"]) == names
        ok(peer.request("terminate", {}))
