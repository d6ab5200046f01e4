"""How `pyinspect serve` is reached and which adapter it drives: streamable HTTP bound to
127.0.0.1 only, and netcoredbg selectable (PYINSPECT_NETCOREDBG or PATH) with a clear
SETUP_MISSING answer when it is not there."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from mcp import Client
from mcp_calls import call_ok, error_code, error_json, story_line, story_source
from support.targets import target_dll

from pyinspect.server import create_server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "pyinspect", "serve", "--http", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, f"pyinspect serve --http exited with {proc.returncode}"
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "the HTTP server did not listen within 20 s"
            time.sleep(0.1)
        yield port, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.mark.asyncio
async def test_http_serves_a_debug_session_on_localhost_only(http_server: tuple[int, subprocess.Popen[bytes]]) -> None:
    port, proc = http_server
    listening = [c.laddr for c in psutil.Process(proc.pid).net_connections(kind="inet")
                 if c.status == psutil.CONN_LISTEN]
    assert listening and all(address.ip == "127.0.0.1" and address.port == port for address in listening), listening
    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
        assert (await call_ok(client, "debug_state"))["state"] == "not_started"
        await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("exit"))
        await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), args=["9"])
        stop = await call_ok(client, "debug_wait", timeout_ms=20000)
        assert stop["state"] == "paused" and stop["location"]["line"] == story_line("exit"), stop
        assert (await call_ok(client, "evaluate", expression="exitCode"))["result"] == "9"
        end = await call_ok(client, "debug_continue", timeout_ms=20000)
        assert end["state"] == "exited", end  # exit codes: test_agent_story
        await call_ok(client, "debug_disconnect")


def without_netcoredbg(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """PATH keeps only directories without a netcoredbg; PYINSPECT_NETCOREDBG unset."""
    monkeypatch.delenv("PYINSPECT_NETCOREDBG", raising=False)
    kept = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "netcoredbg").exists()]
    monkeypatch.setenv("PATH", os.pathsep.join([str(folder), *kept]))


@pytest.mark.asyncio
async def test_netcoredbg_missing_is_a_setup_error_and_ours_still_works(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    without_netcoredbg(monkeypatch, tmp_path)
    async with Client(create_server(adapter="netcoredbg")) as client:
        program = str(target_dll("AgentStory"))
        launched = await client.call_tool("debug_launch", {"program": program})
        answer = error_json(launched)
        assert answer["error"]["code"] == "SETUP_MISSING", answer
        assert "PYINSPECT_NETCOREDBG" in answer["error"]["message"] and "PATH" in answer["error"]["message"]
        monkeypatch.setenv("PYINSPECT_NETCOREDBG", str(tmp_path / "no-such-netcoredbg"))
        assert await error_code(client, "debug_attach", pid=os.getpid()) == "SETUP_MISSING"
        assert (await call_ok(client, "debug_state"))["state"] == "not_started"
        await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("exit"))
        await call_ok(client, "debug_launch", program=program, adapter="pyinspect")
        stop = await call_ok(client, "debug_wait", timeout_ms=20000)
        assert stop["state"] == "paused" and stop["adapter"] == "pyinspect", stop
        await call_ok(client, "debug_disconnect")


@pytest.mark.asyncio
async def test_netcoredbg_is_started_from_pyinspect_netcoredbg(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    """A stand-in that records how it was started and exits: the session must have run it
    as a DAP adapter, then say the adapter is gone."""
    record = tmp_path / "argv.txt"
    stand_in = tmp_path / "netcoredbg"
    stand_in.write_text(f'#!/bin/sh\necho "$@" > {record}\n')
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PYINSPECT_NETCOREDBG", str(stand_in))
    async with Client(create_server(adapter="netcoredbg")) as client:
        started = time.monotonic()
        code = await error_code(client, "debug_launch", program=str(target_dll("AgentStory")))
        assert code in ("ADAPTER_DIED", "ADAPTER_ERROR"), code
        assert time.monotonic() - started < 10
    assert record.read_text().split() == ["--interpreter=vscode"]


def standin_netcoredbg(folder: Path) -> Path:
    """An executable named netcoredbg that runs netcoredbg_standin.py with this Python."""
    script = folder / "netcoredbg"
    relay = Path(__file__).with_name("netcoredbg_standin.py")
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{relay}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.mark.asyncio
async def test_a_session_tolerates_netcoredbgs_quirks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """String seq numbers and no memory references: the seed tools work, the memory tools
    say they need our adapter."""
    monkeypatch.setenv("PYINSPECT_NETCOREDBG", str(standin_netcoredbg(tmp_path)))
    async with Client(create_server(adapter="netcoredbg")) as client:
        await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("price"))
        await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), args=["5"])
        stop = await call_ok(client, "debug_wait", timeout_ms=20000)
        assert stop["state"] == "paused" and stop["adapter"] == "netcoredbg", stop
        assert stop["location"]["function"] == "Price" and stop["location"]["line"] == story_line("price")
        frames = (await call_ok(client, "stacktrace_get"))["frames"]
        assert [f["function"] for f in frames[:3]] == ["Price", "Process", "Main"]
        names = {v["name"]: v["value"] for v in (await call_ok(client, "variables_get"))["variables"]}
        assert names["quantity"] == "1" and names["unit"] == "2.5"
        assert (await call_ok(client, "evaluate", expression="this._customer.Name"))["result"] == '"Ada"'
        assert await error_code(client, "collection_analyze", expression="this._customer.Orders") == "SETUP_MISSING"
        assert await error_code(client, "object_inspect", object_ref="this._customer") == "SETUP_MISSING"
        await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("price"), hit_count=2)
        await call_ok(client, "breakpoint_remove", id=1)
        again = await call_ok(client, "debug_continue", timeout_ms=20000)
        assert again["state"] == "paused" and again["hit_breakpoint_ids"] == [2], again
        assert (await call_ok(client, "evaluate", expression="quantity"))["result"] == "3"
        await call_ok(client, "breakpoint_remove", id=2)
        end = await call_ok(client, "debug_continue", timeout_ms=20000)
        assert end["state"] == "exited" and end["exit_code"] == 5, end
        await call_ok(client, "debug_disconnect")


def test_serve_refuses_an_unknown_adapter_and_port() -> None:
    for extra in (["--adapter", "gdb"], ["--http", "--port", "70000"]):
        result = subprocess.run([sys.executable, "-m", "pyinspect", "serve", *extra], capture_output=True,
                                text=True, timeout=30, check=False)
        assert result.returncode == 2 and "error" in result.stderr, (extra, result.stderr)
