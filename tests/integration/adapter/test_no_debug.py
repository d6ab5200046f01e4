"""launch with `noDebug: true` ("Run Without Debugging"): the program runs without a
debugger (breakpoints never stop it, no startup hook holds it), its output arrives as
`output` events, and its end as `exited` with its code and `terminated`; terminate ends a
program that would run on."""

from __future__ import annotations

import time

from support.adapter_session import launched, output_of
from support.dap_wire import WirePeer
from support.targets import target_dll


def test_a_program_runs_to_its_end_without_stopping_at_breakpoints() -> None:
    with launched("AdapterSample", args=["", "3"], markers=["locals", "exit"], noDebug=True) as peer:
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 3
        peer.wait_event("terminated", timeout=10)
        assert not [e for e in peer.events if e["event"] == "stopped"]
        assert "locals ready\n" in output_of(peer, "stdout")
        assert "total 107\n" in output_of(peer, "stderr")


def test_terminate_ends_a_program_run_without_debugging() -> None:
    with launched("InspectSample", args=["hot"], noDebug=True) as peer:
        process = peer.wait_event("process", timeout=10)["body"]
        started = time.monotonic()
        answer = peer.request("terminate", {}, timeout=5)
        assert answer["success"], answer
        assert time.monotonic() - started < 1.0, "answered at once"
        peer.wait_event("terminated", timeout=10)
        assert process["startMethod"] == "launch"


def test_a_non_boolean_no_debug_is_refused() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        peer.request("initialize", {"adapterID": "coreclr"})
        answer = peer.request("launch", {"program": str(target_dll("AdapterSample")), "noDebug": "yes"}, timeout=30)
        assert not answer["success"] and "'noDebug' must be true or false" in answer["message"]
    finally:
        peer.close()
