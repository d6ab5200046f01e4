"""Detach never freezes the debuggee (issue 13, items 1 and 2).

Before the fix, detaching with a breakpoint set failed inside ICorDebug (0x80131C21:
outstanding breakpoints) and left the process stopped for good. The counter file of
DebuggeeLoop is how the test sees that it runs again; a second attach proves the runtime
accepts a debugger again.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.adapter_session import launched, ok
from support.dap_wire import WirePeer
from support.debuggee_loop import counter_moves, counting_loop
from support.targets import marker_line, target_source, wait_for_file


@pytest.fixture
def debuggee(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter
        assert proc.poll() is None, "the debuggee must never be killed by a detach"


def attached(pid: int, process_id: int | str | None = None) -> WirePeer:
    peer = WirePeer("--interpreter=vscode")
    ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
    ok(peer.request("attach", {"processId": pid if process_id is None else process_id}, timeout=30))
    ok(peer.request("configurationDone"))
    return peer


def detach(peer: WirePeer) -> None:
    answer = peer.request("disconnect", {"terminateDebuggee": False}, timeout=30)
    assert answer["success"], answer.get("message")
    peer.close()


def test_detach_with_a_breakpoint_that_never_hit_leaves_the_debuggee_running(debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    peer = attached(pid)
    body = ok(peer.request("setBreakpoints", {"source": {"path": str(target_source("DebuggeeLoop"))},
                                              "breakpoints": [{"line": marker_line("DebuggeeLoop", "tick"),
                                                               "condition": "false"}]}))
    assert body["breakpoints"][0]["verified"] is True
    detach(peer)
    assert counter_moves(counter, 1.0), "the debuggee must run again after detach"
    again = attached(pid)  # the runtime takes a debugger again: nothing of ours was left behind
    detach(again)
    assert counter_moves(counter, 1.0)


def test_detach_while_stopped_at_a_breakpoint_leaves_the_debuggee_running(debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    peer = attached(pid)
    ok(peer.request("setBreakpoints", {"source": {"path": str(target_source("DebuggeeLoop"))},
                                       "breakpoints": [{"line": marker_line("DebuggeeLoop", "tick")}]}))
    stop = peer.wait_event("stopped", timeout=30)["body"]
    assert stop["reason"] == "breakpoint"
    ok(peer.request("next", {"threadId": stop["threadId"]}))  # a stepper armed as well
    peer.wait_event("stopped", timeout=30)
    detach(peer)
    assert counter_moves(counter, 1.0), "the debuggee must run again after detach"


def test_attach_accepts_the_process_id_as_a_string(debuggee: tuple[int, Path]) -> None:
    """VS Code's `"processId": "${command:pickProcess}"` sends a string."""
    pid, counter = debuggee
    peer = attached(pid, process_id=str(pid))
    detach(peer)
    assert counter_moves(counter, 1.0)


def test_attach_refuses_a_process_id_that_is_not_a_number() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        answer = peer.request("attach", {"processId": "not-a-pid"})
        assert answer["success"] is False
        assert "processId" in answer["message"]
    finally:
        peer.close()


def test_launch_then_disconnect_without_terminating_leaves_the_program_running(tmp_path: Path) -> None:
    counter = tmp_path / "counter.txt"
    with launched("DebuggeeLoop", args=[str(counter)], markers=[{"marker": "tick", "condition": "false"}]) as peer:
        wait_for_file(counter)
        pid = ok(peer.request("threads"))  # the adapter still answers while it runs
        assert pid["threads"]
        process = next(e for e in peer.events if e["event"] == "process")["body"]["systemProcessId"]
        answer = peer.request("disconnect", {"terminateDebuggee": False}, timeout=30)
        assert answer["success"], answer.get("message")
        try:
            assert counter_moves(counter, 1.0), "the launched program must run on after the adapter let go"
        finally:
            os.kill(process, signal.SIGKILL)
