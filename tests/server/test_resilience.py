"""The server outlives its failures: the adapter killed mid-session gives an error within
a second and a new session works; the server killed while attached leaves the debuggee
running (the adapter sees its input close and detaches)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import psutil
import pytest
from mcp import Client, StdioServerParameters
from mcp_calls import call_ok, error_code, story_line, story_source, with_client
from support.debuggee_loop import counter_moves, counting_loop
from support.targets import target_dll

pytestmark = pytest.mark.asyncio


@pytest.fixture
def loop(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter


def adapters_of(pid: int) -> list[psutil.Process]:
    return [p for p in psutil.Process(pid).children(recursive=True)
            if any("PyInspect.Debugger" in part for part in p.cmdline())]


@with_client
async def test_a_killed_adapter_answers_within_a_second_and_a_new_session_works(
        client: Client, loop: tuple[int, Path]) -> None:
    pid, _ = loop
    await call_ok(client, "debug_attach", pid=pid)
    assert (await call_ok(client, "debug_pause"))["state"] == "paused"
    (adapter,) = adapters_of(os.getpid())
    adapter.kill()
    started = time.monotonic()
    assert await error_code(client, "stacktrace_get") == "ADAPTER_DIED"
    assert time.monotonic() - started < 1.0
    state = await call_ok(client, "debug_state")
    assert state["state"] == "exited" and "adapter" in state["message"]

    await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("exit"))
    await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), args=["6"])
    stop = await call_ok(client, "debug_wait", timeout_ms=20000)
    assert stop["state"] == "paused" and stop["location"]["line"] == story_line("exit")
    assert (await call_ok(client, "evaluate", expression="exitCode"))["result"] == "6"
    await call_ok(client, "debug_disconnect")


def serve_over_stdio() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "pyinspect", "serve"],
                                 env={**os.environ})


def server_process() -> psutil.Process:
    found = [p for p in psutil.Process(os.getpid()).children(recursive=True)
             if "serve" in p.cmdline() and "pyinspect" in " ".join(p.cmdline())]
    assert len(found) == 1, found
    return found[0]


async def test_over_stdio_a_breakpoint_stop_reads_the_stack() -> None:
    async with Client(serve_over_stdio()) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"debug_launch", "threads_list", "stacktrace_get", "variables_get", "evaluate"} <= names
        await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("price"))
        await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")))
        assert (await call_ok(client, "debug_wait", timeout_ms=20000))["state"] == "paused"
        frames = (await call_ok(client, "stacktrace_get"))["frames"]
        assert [f["function"] for f in frames[:3]] == ["Price", "Process", "Main"]
        pid = (await call_ok(client, "debug_state"))["pid"]
    deadline = time.monotonic() + 10  # the server's shutdown ends the launched debuggee
    while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the launched debuggee outlived the server"
        await anyio.sleep(0.05)


async def test_killing_the_server_while_attached_leaves_the_debuggee_running(loop: tuple[int, Path]) -> None:
    pid, counter = loop
    adapter: psutil.Process | None = None
    with contextlib.suppress(Exception):  # the client's own teardown fails: its server is gone
        async with Client(serve_over_stdio()) as client:
            await call_ok(client, "debug_attach", pid=pid)
            assert (await call_ok(client, "debug_pause"))["state"] == "paused"
            assert not counter_moves(counter)
            server = server_process()
            adapter = adapters_of(server.pid)[0]
            server.kill()
    assert adapter is not None, "the session did not reach the kill"
    adapter.wait(timeout=10)  # its input closed: it detaches and exits
    deadline = time.monotonic() + 10
    while not counter_moves(counter, 0.2):
        assert time.monotonic() < deadline, "the debuggee stayed stopped after the server died"
    assert psutil.pid_exists(pid)
