"""Fault injection: the adapter or the server SIGKILLed while the debuggee runs or is
paused, launched or attached. A launched program ends (the watchdog or the adapter ends
it); an attached one runs on (the adapter detaches, or the watchdog releases the runtime
the dead adapter left waiting) and takes a new debugger. The next call after an adapter
death answers ADAPTER_DIED within a second, and the next session works. No breakpoints
here: detach with breakpoints set is the adapter issue's (13) to fix; pause stops the
process."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from mcp import Client
from mcp_calls import call_ok, error_code
from support.debuggee_loop import counter_moves, counting_loop
from support.targets import target_dll, wait_for_file
from test_resilience import adapters_of, serve_over_stdio, server_process

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio


@pytest.fixture
def attached_loop(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def moves_within(counter: Path, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if counter_moves(counter, 0.2):
            return True
    return False


def wait_for_watchdogs(seconds: float = 30.0) -> None:
    watchdogs = [p for p in psutil.Process().children(recursive=True) if "pyinspect.session.watchdog" in command_of(p)]
    _, alive = psutil.wait_procs(watchdogs, timeout=seconds)
    assert not alive, "the watchdog did not finish"


def command_of(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:  # gone, or a zombie
        return ""


async def start(client: Client, mode: str, paused: bool, folder: Path, attach_pid: int | None) -> tuple[int, Path]:
    """A DebuggeeLoop session (launched, or attached to attach_pid), paused if asked."""
    counter = folder / "counter.txt"
    if mode == "launch":
        await call_ok(client, "debug_launch", program=str(target_dll("DebuggeeLoop")), args=[str(counter)])
        wait_for_file(counter)
    else:
        assert attach_pid is not None
        await call_ok(client, "debug_attach", pid=attach_pid)
    pid = (await call_ok(client, "debug_state"))["pid"]
    if paused:
        assert (await call_ok(client, "debug_pause"))["state"] == "paused"
        assert not counter_moves(counter)
    else:
        assert counter_moves(counter)
    return pid, counter


async def next_session_works(client: Client, folder: Path) -> None:
    counter = folder / "next.txt"
    await call_ok(client, "debug_launch", program=str(target_dll("DebuggeeLoop")), args=[str(counter)])
    wait_for_file(counter)
    assert (await call_ok(client, "debug_pause"))["state"] == "paused"
    assert (await call_ok(client, "debug_continue", wait=False))["state"] == "running"
    assert counter_moves(counter)
    pid = (await call_ok(client, "debug_disconnect"))["pid"]
    assert pid is None or wait_gone(pid)


@pytest.mark.parametrize("paused", [False, True], ids=["running", "paused"])
@pytest.mark.parametrize("mode", ["launch", "attach"])
async def test_an_adapter_killed_leaves_no_launched_program_and_answers_within_a_second(
        mode: str, paused: bool, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    attach_pid = request.getfixturevalue("attached_loop")[0] if mode == "attach" else None
    async with Client(create_server()) as client:
        pid, counter = await start(client, mode, paused, tmp_path, attach_pid)
        (adapter,) = adapters_of(os.getpid())
        adapter.kill()
        started = time.monotonic()
        assert await error_code(client, "threads_list") == "ADAPTER_DIED"
        assert time.monotonic() - started < 1.0
        message = (await call_ok(client, "debug_state"))["message"]
        if mode == "launch":
            assert wait_gone(pid), "the launched debuggee outlived its dead adapter"
            assert "terminated" in message, message
        else:
            assert moves_within(counter), "the attached debuggee stayed stopped after its adapter died"
            assert "keeps running" in message, message
            wait_for_watchdogs()  # it attaches and detaches once: until then the runtime is taken
            await call_ok(client, "debug_attach", pid=pid)  # the runtime takes a new debugger
            assert (await call_ok(client, "debug_pause"))["state"] == "paused"
            await call_ok(client, "debug_disconnect")
            assert moves_within(counter)
        await next_session_works(client, tmp_path)


@pytest.mark.parametrize("paused", [False, True], ids=["running", "paused"])
@pytest.mark.parametrize("mode", ["launch", "attach"])
async def test_a_server_killed_leaves_its_program_running_if_attached_and_ended_if_launched(
        mode: str, paused: bool, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    attach_pid = request.getfixturevalue("attached_loop")[0] if mode == "attach" else None
    reached: tuple[int, Path] | None = None
    with contextlib.suppress(Exception):  # the client's teardown fails: its server is gone
        async with Client(serve_over_stdio()) as client:
            reached = await start(client, mode, paused, tmp_path, attach_pid)
            server_process().kill()
    assert reached is not None, "the session did not reach the kill"
    pid, counter = reached
    if mode == "launch":
        assert wait_gone(pid, 10), "the launched debuggee outlived the server"
    else:
        assert moves_within(counter), "the attached debuggee stayed stopped after the server died"
        assert psutil.pid_exists(pid)
    async with Client(create_server()) as client:
        await next_session_works(client, tmp_path)
