"""The triage tools (heap_threads, heap_locks, heap_async, heap_exceptions, heap_threadpool)
through an MCP client, after dump_open of HangShape's crash dump and heap_attach of the hung
process (.NET 10): each answer against the program's own truth."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_calls import call, call_ok
from support.hangshape import Hang, crash_dump, hung
from support.targets import read_truth, target_dll, wait_for_file

from pyinspect.heap.stack_locals import method_key
from pyinspect.server import create_server

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def hang(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hang]:
    with hung("net10.0", tmp_path_factory.mktemp("hang")) as running:
        yield running


@pytest.fixture(scope="module")
def crash(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hang, Path]]:
    truth, dump = crash_dump("net10.0", tmp_path_factory.mktemp("crash"))
    yield truth, dump
    dump.unlink(missing_ok=True)


@pytest.mark.asyncio
async def test_mcp_tools_answer_from_a_dump_and_a_process(hang: Hang, crash: tuple[Hang, Path]) -> None:
    async with Client(create_server()) as client:
        for tool in ("heap_threads", "heap_locks", "heap_async", "heap_exceptions", "heap_threadpool"):
            assert (await call(client, tool))["error"]["code"] == "NO_HEAP", tool
        await call_ok(client, "dump_open", path=str(crash[1]))
        threads = await call_ok(client, "heap_threads", max_threads=200, max_frames=20)
        assert threads["source"]["kind"] == "dump" and not threads["truncated"]
        named = {t.get("name"): t for t in threads["threads"]}
        assert named["deadlock-a"]["blockedIn"] == "monitor" and named["deadlock-a"]["waitingFor"]
        assert threads["threads"][0]["blockedIn"] is not None  # blocked threads first
        chains = await call_ok(client, "heap_async")
        assert chains["chains"][0]["stuck"] and len(chains["chains"][0]["chain"]) == 3
        exceptions = await call_ok(client, "heap_exceptions", limit=5)
        assert exceptions["exceptions"][0]["message"] == "triage-crash" and len(exceptions["exceptions"]) <= 5
        pool = await call_ok(client, "heap_threadpool")
        assert pool["threadPool"]["maxThreads"] == crash[0].truth["pool"]["poolThreads"]
        queued = {row["type"]: row["count"] for row in pool["threadPool"]["queuedByType"]}
        assert queued["HangShape.QueuedWork"] == crash[0].truth["pool"]["queuedWork"]
        refused = await call(client, "heap_threads", max_frames=0)
        assert refused["error"]["code"] == "INVALID_PARAMETER"

        await call_ok(client, "heap_attach", pid=hang.pid)
        locks = await call_ok(client, "heap_locks")
        assert locks["source"]["kind"] == "process" and len(locks["deadlocks"]) == 1
        assert "deadlock-a" in locks["deadlocks"][0]["description"]


def _managed_frames(frames: list[dict[str, Any]], method: str) -> list[tuple[str, int | None]]:
    """(method name, line) of each managed frame, leaf first. The debugger names a method
    by its name alone (a lambda as AnonymousMethod__N), ClrMD by its full signature: both
    compare through method_key's last part."""
    return [(method_key(f[method]).rsplit(".", 1)[-1], f.get("line"))
            for f in frames if f.get("kind", "managed") == "managed"]


@pytest.mark.asyncio
async def test_in_a_paused_session_the_stacks_agree_with_threads_list_and_stacktrace_get(tmp_path: Path) -> None:
    truth_file = tmp_path / "hang.json"
    async with Client(create_server()) as client:
        await call_ok(client, "debug_launch", program=str(target_dll("HangShape")), args=[str(truth_file)])
        await anyio.to_thread.run_sync(lambda: wait_for_file(truth_file, timeout=90))
        assert (await call_ok(client, "debug_pause"))["state"] == "paused"
        truth = read_truth(truth_file)
        listed = {t["id"] for t in (await call_ok(client, "threads_list"))["threads"]}
        heap = await call_ok(client, "heap_threads", max_threads=1000, max_frames=100, objects=False)
        assert heap["source"]["kind"] == "debug_session"
        ours = {t["osThreadId"]: t for t in heap["threads"]}
        for expected in truth["threads"]:
            thread_id = expected["osThreadId"]
            assert thread_id in listed and thread_id in ours, (expected, sorted(listed))
            trace = await call_ok(client, "stacktrace_get", thread_id=thread_id, max_frames=100)
            debugger = _managed_frames(trace["frames"], "function")
            assert any(line for _, line in debugger), debugger  # the program's own frames have lines
            assert debugger == _managed_frames(ours[thread_id]["frames"], "method"), expected["name"]
        await call_ok(client, "debug_disconnect")
