"""trace_start / trace_stop through an MCP client: a recording of a heap-only process (pid
given) and of a launched debug session (pid from the session) hold to TraceTruth's own
truth, and so does one of a debug session attached to a running process (pid from the
session); a second trace_start, a trace_stop with none, and pids that cannot be recorded
answer coded errors; the server's end leaves no recorder running; and the leak story:
heap_diff names the growing type, trace_stop the method that allocates it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import psutil
import pytest
from mcp import Client
from mcp_calls import call, call_ok
from support.targets import running_target, target_dll, wait_for_file
from support.trace_truth import (
    FRAMEWORKS,
    TraceTruthRun,
    assert_matches_truth,
    process_without_runtime,
    trace_truth,
)

from pyinspect.server import create_server

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(300)]


def _recorders() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if "PyInspect.Trace" in " ".join(p.cmdline())]


@pytest.mark.parametrize("framework", FRAMEWORKS)
async def test_a_recording_of_a_running_process_names_who_allocated_and_every_gc(tmp_path: Path,
                                                                                 framework: str) -> None:
    """On .NET 10 (randomized allocation sampling) and the .NET 8 and 9 self-contained
    publishes (AllocationTick): the face agents use, on every runtime."""
    with trace_truth(tmp_path, framework) as (proc, run):
        async with Client(create_server()) as client:
            started = await call_ok(client, "trace_start", pid=proc.pid)
            opened = time.monotonic()
            assert started["pid"] == proc.pid and started["allocations"] and started["gc"]
            assert started["runtimeVersion"].startswith(framework[3:5].rstrip(".") + ".")
            again = await call(client, "trace_start", pid=proc.pid)
            assert again["error"]["code"] == "TRACE_RUNNING", again
            truth = run.go(proc)
            # the runtime sends its counters once a second: a window of a few seconds holds some
            await anyio.sleep(max(0.0, 3.5 - (time.monotonic() - opened)))
            answer = await call_ok(client, "trace_stop")
            assert_matches_truth(answer, truth, framework)
            names = {c["name"] for c in answer["counters"]}
            assert {"alloc-rate", "time-in-gc", "gen-0-size", "loh-size", "gc-fragmentation",
                    "exception-count"} <= names, names
            assert answer["windowSeconds"] > 0 and answer["parse"]["events"] > 0
            none = await call(client, "trace_stop")
            assert none["error"]["code"] == "NO_TRACE", none
    assert _recorders() == []


async def test_a_recording_of_the_debug_session_needs_no_pid(tmp_path: Path) -> None:
    run = TraceTruthRun(tmp_path)
    async with Client(create_server()) as client:
        await call_ok(client, "debug_launch", program=str(target_dll("TraceTruth")), args=run.args())
        started = await call_ok(client, "trace_start")
        assert started["pid"] > 0
        truth = run.go()
        answer = await call_ok(client, "trace_stop")
        assert answer["pid"] == started["pid"]
        assert_matches_truth(answer, truth)
        await call_ok(client, "debug_disconnect")


async def test_a_recording_of_an_attached_debug_session_needs_no_pid_and_leaves_it_running(tmp_path: Path) -> None:
    with trace_truth(tmp_path) as (proc, run):
        async with Client(create_server()) as client:
            await call_ok(client, "debug_attach", pid=proc.pid)
            started = await call_ok(client, "trace_start")
            assert started["pid"] == proc.pid
            truth = run.go(proc)
            answer = await call_ok(client, "trace_stop")
            assert answer["pid"] == proc.pid and not answer["targetExited"]
            assert_matches_truth(answer, truth)
            await call_ok(client, "debug_disconnect")
        assert _recorders() == []
        assert proc.poll() is None, "detaching must leave the attached program running"


async def test_pids_that_cannot_be_recorded_answer_coded_errors() -> None:
    with process_without_runtime() as pid:
        async with Client(create_server()) as client:
            not_dotnet = await call(client, "trace_start", pid=pid)
            assert not_dotnet["error"]["code"] == "NOT_DOTNET_PROCESS", not_dotnet
            missing = await call(client, "trace_start", pid=2**22 + 12345)
            assert missing["error"]["code"] == "PROCESS_NOT_FOUND", missing
            no_session = await call(client, "trace_start")
            assert no_session["error"]["code"] == "INVALID_PARAMETER", no_session
            nothing = await call(client, "trace_start", pid=pid, allocations=False, gc=False)
            assert nothing["error"]["code"] == "INVALID_PARAMETER", nothing
    assert _recorders() == []


async def test_the_servers_end_stops_a_running_recording(tmp_path: Path) -> None:
    with trace_truth(tmp_path) as (proc, _):
        async with Client(create_server()) as client:
            await call_ok(client, "trace_start", pid=proc.pid, gc=False)
            assert len(_recorders()) == 1
        assert _recorders() == []
        assert proc.poll() is None


async def test_the_leak_story_names_the_stack_that_allocates_what_heap_diff_names(tmp_path: Path) -> None:
    status = tmp_path / "status.json"
    with running_target("LeakStory", str(status)) as proc:
        wait_for_file(status, timeout=60, proc=proc)
        async with Client(create_server()) as client:
            await call_ok(client, "heap_attach", pid=proc.pid)
            await call_ok(client, "heap_snapshot")
            await call_ok(client, "trace_start", pid=proc.pid)
            assert proc.stdin is not None
            proc.stdin.write(b"leak\n")
            proc.stdin.flush()
            _wait_until_held(status, 10_000)
            await call_ok(client, "heap_snapshot")
            suspect = (await call_ok(client, "heap_diff"))["changes"][0]["type"]
            answer = await call_ok(client, "trace_stop")
    assert suspect == "LeakStory.LeakedSession"
    row = next(r for r in answer["allocations"] if r["type"] == suspect)
    assert "LeakStory.SessionCache.Remember(" in row["topStacks"][0]["method"], row
    assert row["samples"] > 0


def _wait_until_held(status: Path, held: int) -> None:
    deadline = time.monotonic() + 60
    while json.loads(status.read_text())["held"] != held:
        assert time.monotonic() < deadline, "LeakStory did not leak its batch"
        time.sleep(0.05)


async def test_a_paused_debuggee_is_refused_at_once_and_recorded_once_running(tmp_path: Path) -> None:
    run = TraceTruthRun(tmp_path)
    async with Client(create_server()) as client:
        await call_ok(client, "debug_launch", program=str(target_dll("TraceTruth")), args=run.args())
        await call_ok(client, "debug_pause")
        paused = await call(client, "trace_start", gc=False)
        assert paused["error"]["code"] == "INVALID_PARAMETER" and "paused" in paused["error"]["message"], paused
        assert _recorders() == []
        await call_ok(client, "debug_continue", wait=False)
        await call_ok(client, "trace_start", gc=False)
        run.go()
        answer = await call_ok(client, "trace_stop")
        assert any(row["type"] == "TraceTruth.Particle" for row in answer["allocations"])
        await call_ok(client, "debug_disconnect")
    assert _recorders() == []
