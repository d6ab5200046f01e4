"""Handles on one real HTTP server (`pyinspect serve --http`): two clients with the Python SDK's
default Client (protocol 2026-07-28, no MCP session) each hold their own heap and debug session
by the handles the server minted; neither reaches the other's; a call without a handle, a
forged one and an expired one are refused with their codes; one client diffs two dumps across
two heap handles; a session client (2025-11-25) works without handles, as before."""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from mcp import Client, StdioServerParameters
from mcp_calls import call, call_ok, story_line, story_source
from support.targets import read_truth, running_target, target_dll, wait_for_file
from test_http_sessions import session_client
from test_transports import TOKEN, authorized_client, serving_http

pytestmark = pytest.mark.asyncio
IDLE = 2.0
LEAKED = "LeakStory.LeakedSession"


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    env = {**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN}
    with serving_http(env=env) as (served, _):
        yield served


@pytest.fixture(scope="module")
def leak(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    """LeakStory running: it holds one more batch of LeakedSession per "leak" line."""
    folder = tmp_path_factory.mktemp("handles")
    status = folder / "status.json"
    with running_target("LeakStory", str(status)) as proc:
        wait_for_file(status, timeout=60, proc=proc)
        yield proc, status


async def refused(client: Client, tool: str, **arguments: Any) -> tuple[str, str]:
    answer = await call(client, tool, **arguments)
    assert answer["success"] is False, answer
    return answer["error"]["code"], answer["error"]["message"]


async def test_two_stateless_clients_each_reach_only_what_they_opened(port: int, leak: tuple[Any, Path]) -> None:
    proc, _ = leak
    async with authorized_client(port) as a, authorized_client(port) as b:
        assert a.protocol_version == "2026-07-28" and a.server_info is not None, a.protocol_version
        assert a.server_info.name == "pyinspect" and a.server_info.version  # server/discover's identity
        listed = await a.list_tools()
        assert listed.ttl_ms == 3_600_000, listed.ttl_ms
        for tool in listed.tools:
            assert tool.output_schema and ("handle" in tool.input_schema["properties"]) is (tool.name != "process_list")
        heap_a = await call_ok(a, "heap_attach", pid=proc.pid)
        handle_a = heap_a["handle"]  # only a 2026-07-28 answer carries one: the client spoke it
        assert len(handle_a) >= 32 and str(proc.pid) not in handle_a, handle_a
        bp = await call_ok(a, "breakpoint_set", file=story_source(), line=story_line("exit"))
        debug_a = bp["handle"]
        assert debug_a != handle_a
        await call_ok(a, "debug_launch", handle=debug_a, program=str(target_dll("AgentStory")), args=["2"])
        assert (await call_ok(a, "debug_wait", handle=debug_a, timeout_ms=30000))["state"] == "paused"

        code, message = await refused(b, "heap_stats")
        assert code == "HANDLE_REQUIRED" and "heap_attach" in message, message
        assert (await refused(b, "debug_continue"))[0] == "HANDLE_REQUIRED"
        assert (await refused(b, "heap_stats", handle=secrets.token_urlsafe(24)))[0] == "HANDLE_UNKNOWN"
        heap_b = await call_ok(b, "heap_attach", pid=proc.pid)
        assert heap_b["handle"] not in (handle_a, debug_a)
        assert (await call_ok(b, "debug_state", handle=heap_b["handle"]))["state"] == "not_started"
        assert (await refused(b, "debug_disconnect", handle=heap_b["handle"]))[0] == "NO_SESSION"

        assert (await call_ok(a, "debug_state", handle=debug_a))["state"] == "paused"  # B could not move it
        stats = await call_ok(a, "heap_stats", handle=handle_a, top=3)
        assert stats["source"]["pid"] == proc.pid and stats["handle"] == handle_a
        ended = await call_ok(a, "debug_disconnect", handle=debug_a)
        assert ended["state"] == "exited" or "terminated" in (ended.get("message") or ""), ended


async def test_one_client_diffs_two_dumps_by_their_handles(port: int, leak: tuple[Any, Path],
                                                           tmp_path: Path) -> None:
    proc, status = leak
    async with authorized_client(port) as client:
        first = await _dump_and_snapshot(client, proc.pid, tmp_path / "before.dmp")
        held = read_truth(status)["held"]
        proc.stdin.write(b"leak\n")
        proc.stdin.flush()
        batch = await _wait_held(status, held + read_truth(status)["batch"])
        second = await _dump_and_snapshot(client, proc.pid, tmp_path / "after.dmp")
        diff = await call_ok(client, "heap_diff", handle=second, before="s1", after="s1", before_handle=first)
        assert diff["beforeSource"]["path"].endswith("before.dmp") and diff["afterSource"]["path"].endswith("after.dmp")
        leaked = next(row for row in diff["changes"] if row["type"] == LEAKED)
        assert leaked["countDelta"] == batch, leaked


async def test_an_idle_handle_expires_with_what_it_holds(leak: tuple[Any, Path]) -> None:
    """A server of its own with a short idle timeout, so no other test's handle can expire
    while a slow step (a dump of a busy machine) keeps it idle."""
    proc, _ = leak
    env = {**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN}
    with serving_http("--session-idle-timeout", str(IDLE), env=env) as (port, _):
        async with authorized_client(port) as client:
            handle = (await call_ok(client, "heap_attach", pid=proc.pid))["handle"]
            await asyncio.sleep(IDLE + 2.5)  # the sweeper closes the idle heap's handle
            code, message = await refused(client, "heap_stats", handle=handle)
            assert code == "HANDLE_CLOSED" and "expired" in message, message


async def _dump_and_snapshot(client: Client, pid: int, path: Path) -> str:
    await call_ok(client, "dump_create", pid=pid, path=str(path))
    handle = (await call_ok(client, "dump_open", path=str(path), offline=True))["handle"]
    assert (await call_ok(client, "heap_snapshot", handle=handle))["snapshotId"] == "s1"
    return str(handle)


async def _wait_held(status: Path, held: int) -> int:
    for _ in range(300):
        truth = read_truth(status)
        if truth["held"] >= held:
            return int(truth["batch"])
        await asyncio.sleep(0.1)
    raise AssertionError(f"LeakStory never held {held}")


async def test_a_session_client_needs_no_handle_as_before(port: int) -> None:
    async with session_client(port) as client:
        assert (await refused(client, "heap_stats"))[0] == "NO_HEAP"
        state = await call_ok(client, "debug_state")
        assert state["state"] == "not_started" and "handle" not in state


async def test_past_the_memory_limit_the_least_recently_used_idle_heap_is_closed(leak: tuple[Any, Path]) -> None:
    proc, _ = leak
    env = {**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN, "PYINSPECT_HEAP_MEMORY_MB": "0.000001"}
    with serving_http(env=env) as (port, _):
        async with authorized_client(port) as client:
            older = (await call_ok(client, "heap_attach", pid=proc.pid))["handle"]
            await call_ok(client, "heap_stats", handle=older, top=1)  # its graph: the only one, kept
            await call_ok(client, "heap_stats", handle=older, top=1)
            newer = (await call_ok(client, "heap_attach", pid=proc.pid))["handle"]
            await call_ok(client, "heap_stats", handle=newer, top=1)  # two graphs: the older one goes
            code, message = await refused(client, "heap_stats", handle=older)
            assert code == "HANDLE_CLOSED" and "evicted" in message and "PYINSPECT_HEAP_MEMORY_MB" in message, message
            assert (await call_ok(client, "heap_stats", handle=newer, top=1))["handle"] == newer


async def test_on_stdio_heaps_open_side_by_side_and_a_closed_handle_says_so(leak: tuple[Any, Path],
                                                                              tmp_path: Path) -> None:
    """Over real stdio, calls without a handle read the heap opened last (as when it replaced the
    one before), the earlier heap stays open under its handle, one snapshot book spans both;
    heap_close returns to the earlier heap, handle_close ends a heap or a debug session; a second
    debug session opened alongside leaves the first as it was, and closing it makes the first current."""
    proc, status = leak
    server = StdioServerParameters(command=sys.executable, args=["-m", "pyinspect", "serve"], env=dict(os.environ))
    async with Client(server) as client:
        process = (await call_ok(client, "heap_attach", pid=proc.pid))["handle"]
        assert (await call_ok(client, "heap_snapshot"))["source"]["kind"] == "process"
        held = read_truth(status)["held"]
        proc.stdin.write(b"leak\n")
        proc.stdin.flush()
        batch = await _wait_held(status, held + read_truth(status)["batch"])
        made = await call_ok(client, "dump_create", pid=proc.pid, path=str(tmp_path / "later.dmp"))
        dump = (await call_ok(client, "dump_open", path=made["path"], offline=True))["handle"]
        assert dump != process and made["handle"] == process  # dump_create wrote a file, opened nothing
        assert (await call_ok(client, "heap_snapshot"))["source"]["kind"] == "dump"  # the heap opened last
        diff = await call_ok(client, "heap_diff")  # the last two snapshots, one of each heap
        assert (diff["beforeSource"]["kind"], diff["afterSource"]["kind"]) == ("process", "dump")
        assert next(row for row in diff["changes"] if row["type"] == LEAKED)["countDelta"] == batch
        assert (await call_ok(client, "heap_stats", handle=process, top=1))["source"]["kind"] == "process"

        await call_ok(client, "heap_close")  # the dump: the process is read again
        assert (await call_ok(client, "heap_stats", top=1))["source"]["kind"] == "process"
        code, message = await refused(client, "heap_stats", handle=dump)
        assert code == "HANDLE_CLOSED" and "heap_close" in message, message
        closed = await call_ok(client, "handle_close", handle=process)
        assert (closed["kind"], closed["handle"]) == ("heap", process) and "heap closed" in closed["message"], closed
        code, message = await refused(client, "heap_stats", handle=process)
        assert code == "HANDLE_CLOSED" and "closed by the client" in message, message
        assert (await refused(client, "heap_stats"))[0] == "NO_HEAP"  # nothing open, no debug session

        first = await _launched(client)
        second = await _launched(client, alongside=True)  # beside the first, which stays paused
        assert second["handle"] != first["handle"] and second["pid"] != first["pid"]
        assert (await call_ok(client, "debug_state"))["pid"] == second["pid"]  # the current one: opened last
        closed = await call_ok(client, "handle_close", handle=second["handle"])
        assert closed["kind"] == "debug session" and "terminated" in closed["message"], closed
        assert not _alive(second["pid"]) and _alive(first["pid"])
        state = await call_ok(client, "debug_state")  # the first is current again, as it was
        assert (state["pid"], state["state"]) == (first["pid"], "paused"), state
        await call_ok(client, "debug_disconnect")
        assert not _alive(first["pid"])
        assert (await refused(client, "handle_close"))[0] == "INVALID_PARAMETER"


async def _launched(client: Client, alongside: bool = False) -> dict[str, Any]:
    launched = await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), stop_at_entry=True,
                             alongside=alongside)
    assert (await call_ok(client, "debug_wait", handle=launched["handle"], timeout_ms=30000))["state"] == "paused"
    return launched


def _alive(pid: int) -> bool:
    return psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
