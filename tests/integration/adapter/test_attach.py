"""Our adapter attached to a running debuggee: pause, threads, continue, detach.

DebuggeeLoop writes an ever-growing counter to a file; the file is how the test sees
whether the debuggee runs, is stopped, or keeps running after the adapter detaches.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.adapter_session import launched, set_breakpoints
from support.dap_wire import WirePeer
from support.debuggee_loop import counter_moves, counting_loop


@pytest.fixture
def debuggee(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter
        assert proc.poll() is None, "the debuggee must never be killed by the adapter after attach"


@pytest.fixture
def peer() -> Iterator[WirePeer]:
    wire = WirePeer("--interpreter=vscode")
    yield wire
    wire.close()


def attach(peer: WirePeer, pid: int) -> None:
    init = peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True})
    assert init["success"], init
    assert init["body"]["supportsConfigurationDoneRequest"] is True
    peer.wait_event("initialized")
    attached = peer.request("attach", {"processId": pid})
    assert attached["success"], attached
    assert peer.request("configurationDone")["success"]


def test_pause_stops_the_debuggee_and_continue_resumes_it(peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    paused = peer.request("pause", {"threadId": 0})
    assert paused["success"], paused
    stopped = peer.wait_event("stopped")["body"]
    assert stopped["reason"] == "pause" and stopped["allThreadsStopped"] is True
    assert not counter_moves(counter), "the counter file must not change while the process is stopped"

    threads = peer.request("threads")
    assert threads["success"]
    assert len(threads["body"]["threads"]) >= 2  # main and the Spinner thread

    resumed = peer.request("continue", {"threadId": stopped["threadId"]})
    assert resumed["success"], resumed
    assert counter_moves(counter)


def test_detach_leaves_the_debuggee_running(peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    assert peer.request("pause", {"threadId": 0})["success"]
    peer.wait_event("stopped")
    assert peer.request("disconnect", {})["success"]  # after attach: detach, not terminate
    peer.proc.wait(timeout=10)
    assert counter_moves(counter)


def test_requests_that_need_a_stopped_process_fail_while_it_runs(peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, _ = debuggee
    attach(peer, pid)
    answer = peer.request("continue", {"threadId": 0})
    assert answer["success"] is False
    assert "running" in answer["message"]


def test_adapter_input_closed_detaches_without_killing(debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    wire = WirePeer()
    try:
        attach(wire, pid)
        assert wire.request("pause", {"threadId": 0})["success"]
        wire.wait_event("stopped")
    finally:
        wire.close()  # closes stdin without a disconnect request
    assert wire.proc.returncode == 0
    assert counter_moves(counter)


def test_threads_right_after_attach_lists_the_named_threads_of_the_running_process(
        peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    threads = peer.request("threads")
    assert threads["success"], threads
    names = {t["name"] for t in threads["body"]["threads"]}
    assert {"Main Thread", "Spinner"} <= names
    assert counter_moves(counter), "listing threads must leave the process running"



def stop_at_tick(peer: WirePeer) -> int:
    """A breakpoint on DebuggeeLoop's `tick` line, hit: the stopped thread's id."""
    set_breakpoints(peer, "DebuggeeLoop", ["tick"])
    stopped = peer.wait_event("stopped", timeout=15)["body"]
    assert stopped["reason"] == "breakpoint", stopped
    return int(stopped["threadId"])


def detach_and_expect_running(peer: WirePeer, counter: Path) -> None:
    answer = peer.request("disconnect", {"terminateDebuggee": False})
    assert answer["success"], answer
    peer.proc.wait(timeout=10)
    assert counter_moves(counter, seconds=1.0), "the debuggee must run on after detach"


def test_detach_while_stopped_at_a_breakpoint_leaves_the_debuggee_running(
        peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    stop_at_tick(peer)
    detach_and_expect_running(peer, counter)


def test_detach_while_running_with_a_breakpoint_set_leaves_the_debuggee_running(
        peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    thread_id = stop_at_tick(peer)
    assert peer.request("continue", {"threadId": thread_id})["success"]
    detach_and_expect_running(peer, counter)


def test_detach_with_a_step_in_flight_leaves_the_debuggee_running(
        peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    thread_id = stop_at_tick(peer)
    set_breakpoints(peer, "DebuggeeLoop", [])
    assert peer.request("next", {"threadId": thread_id})["success"]
    detach_and_expect_running(peer, counter)


def test_a_second_debugger_can_attach_after_a_detach_with_breakpoints(
        peer: WirePeer, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(peer, pid)
    stop_at_tick(peer)
    detach_and_expect_running(peer, counter)
    again = WirePeer("--interpreter=vscode")
    try:
        attach(again, pid)
        stop_at_tick(again)
        detach_and_expect_running(again, counter)
    finally:
        again.close()


def test_a_launched_program_detached_with_a_breakpoint_set_runs_on(tmp_path: Path) -> None:
    counter = tmp_path / "counter.txt"
    with launched("DebuggeeLoop", args=[str(counter)], markers=["tick"]) as wire:
        wire.wait_event("stopped", timeout=15)
        pid = int(wire.wait_event("process")["body"]["systemProcessId"])
        try:
            detach_and_expect_running(wire, counter)
        finally:
            os.kill(pid, signal.SIGKILL)
