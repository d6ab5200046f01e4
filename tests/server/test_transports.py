"""How `pyinspect serve` is reached and which adapter it drives: streamable HTTP bound to
127.0.0.1 only, behind a bearer token, Host and Origin checks and a body limit, and netcoredbg selectable (PYINSPECT_NETCOREDBG or PATH) with a clear
SETUP_MISSING answer when it is not there."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import psutil
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_calls import call_ok, error_code, error_json, story_line, story_source
from support.listening import stop, wait_listening
from support.targets import target_dll

from pyinspect.server import create_server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


TOKEN = "test-token-" + "x" * 24




@contextlib.contextmanager
def serving_http(*extra: str, env: dict[str, str] | None = None,
                 stderr: int = subprocess.DEVNULL) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "pyinspect", "serve", "--http", "--port", str(port), *extra],
                            stdout=subprocess.DEVNULL, stderr=stderr, env=env or dict(os.environ))
    try:
        wait_listening(proc, port)
        yield port, proc
    finally:
        stop(proc)


@pytest.fixture
def http_server() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    with serving_http(env={**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN}) as served:
        yield served


def authorized_client(port: int, token: str = TOKEN) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(60.0))
    return Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http))


INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}})


def post(port: int, body: str | bytes, headers: dict[str, str]) -> tuple[int, str]:
    """A raw POST to /mcp: (status, body) as the server answers it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", "/mcp", body=body, headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


@pytest.mark.asyncio
async def test_http_serves_a_debug_session_on_localhost_only(http_server: tuple[int, subprocess.Popen[bytes]]) -> None:
    port, proc = http_server
    listening = [c.laddr for c in psutil.Process(proc.pid).net_connections(kind="inet")
                 if c.status == psutil.CONN_LISTEN]
    assert listening and all(address.ip == "127.0.0.1" and address.port == port for address in listening), listening
    async with authorized_client(port) as client:  # protocol 2026-07-28: state is named by handle
        handle = (await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("exit")))["handle"]
        assert (await call_ok(client, "debug_state", handle=handle))["state"] == "not_started"
        await call_ok(client, "debug_launch", handle=handle, program=str(target_dll("AgentStory")), args=["9"])
        stop = await call_ok(client, "debug_wait", handle=handle, timeout_ms=20000)
        assert stop["state"] == "paused" and stop["location"]["line"] == story_line("exit"), stop
        assert (await call_ok(client, "evaluate", handle=handle, expression="exitCode"))["result"] == "9"
        end = await call_ok(client, "debug_continue", handle=handle, timeout_ms=20000)
        assert end["state"] == "exited", end  # exit codes: test_agent_story
        await call_ok(client, "debug_disconnect", handle=handle)


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


def test_http_refuses_requests_without_the_token_from_other_hosts_and_origins_or_too_big(
        http_server: tuple[int, subprocess.Popen[bytes]]) -> None:
    port, proc = http_server
    host = {"Host": f"127.0.0.1:{port}"}
    bearer = {"Authorization": f"Bearer {TOKEN}", **host}
    launch = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "debug_launch", "arguments": {"program": "/bin/sh"}}})
    status, body = post(port, launch, host)
    assert status == 401 and "bearer token" in body, (status, body)
    assert post(port, INITIALIZE, {"Authorization": "Bearer wrong-token-0123456789", **host})[0] == 401
    assert post(port, INITIALIZE, {"Authorization": TOKEN, **host})[0] == 401  # no scheme
    assert post(port, INITIALIZE, {**bearer, "Host": f"rebind.example:{port}"})[0] == 421
    assert post(port, INITIALIZE, {**bearer, "Origin": "http://rebind.example"})[0] == 403
    assert post(port, INITIALIZE, {**bearer, "Origin": f"http://localhost:{port}"})[0] == 200
    status, _ = post(port, b"{" + b" " * (2 * 1024 * 1024) + b"}", bearer)
    assert status == 413, status
    assert post(port, INITIALIZE, bearer)[0] == 200
    assert proc.poll() is None


def test_http_without_a_configured_token_prints_a_random_one_once_on_stderr() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYINSPECT_HTTP_TOKEN"}
    tokens = []
    for _ in range(2):
        with serving_http(env=env, stderr=subprocess.PIPE) as (port, proc):
            assert proc.stderr is not None
            line = proc.stderr.readline().decode()
            assert f"http://127.0.0.1:{port}/mcp" in line and "Authorization: Bearer " in line, line
            token = line.split("Bearer ", 1)[1].strip().strip("'")
            tokens.append(token)
            assert post(port, INITIALIZE, {"Authorization": f"Bearer {token}"})[0] == 200
            assert post(port, INITIALIZE, {})[0] == 401
    assert tokens[0] != tokens[1] and len(tokens[0]) >= 32


@pytest.mark.asyncio
async def test_http_reads_its_token_from_a_file(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("from-a-file-0123456789abcdef\n")
    with serving_http("--token-file", str(token_file)) as (port, _):
        assert post(port, INITIALIZE, {"Authorization": f"Bearer {TOKEN}"})[0] == 401
        async with authorized_client(port, "from-a-file-0123456789abcdef") as client:
            handle = (await call_ok(client, "breakpoint_set", function="Main"))["handle"]
            assert (await call_ok(client, "debug_state", handle=handle))["state"] == "not_started"


def test_http_refuses_a_short_token() -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".token") as token_file:
        token_file.write("short\n")
        token_file.flush()
        result = subprocess.run([sys.executable, "-m", "pyinspect", "serve", "--http", "--port", str(free_port()),
                                 "--token-file", token_file.name], capture_output=True, text=True, timeout=30,
                                check=False)
    assert result.returncode == 2 and "at least 16 characters" in result.stderr, result.stderr
