"""The leak story an agent follows: LeakStory adds a batch of LeakedSession objects to a
static list on demand. Snapshot, trigger the leak, snapshot: heap_diff names the leaked
type first with the batch's exact count, and heap_retention of one instance names the
static that holds it; in each way in (a running process, two dumps, a paused debug
session). Long walks report MCP progress and stop when cancelled."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp_calls import call_ok
from support.targets import marker_line, running_target, target_dll, target_source, wait_for_file

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio


def _leak(proc: Any, status: Path, held: int) -> None:
    """Ask for one more batch; wait (bounded) until the program says it holds `held`."""
    proc.stdin.write(b"leak\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if status.exists() and json.loads(status.read_text())["held"] == held:
            return
        time.sleep(0.05)
    raise AssertionError(f"LeakStory did not report {held} held sessions")


@pytest.mark.timeout(180)
@pytest.mark.parametrize("way", ["process", "dumps"])
async def test_diff_names_the_leaked_type_first_and_retention_names_its_static(tmp_path: Path, way: str) -> None:
    status = tmp_path / "status.json"
    with running_target("LeakStory", str(status)) as proc:
        wait_for_file(status, timeout=60, proc=proc)
        facts = json.loads(status.read_text())
        async with Client(create_server()) as client:
            progress: list[tuple[float, float | None]] = []

            async def note(done: float, total: float | None, _: str | None) -> None:
                progress.append((done, total))

            async def snapshot(name: str) -> None:
                if way == "dumps":
                    made = await call_ok(client, "dump_create", pid=proc.pid, path=str(tmp_path / f"{name}.dmp"))
                    await call_ok(client, "dump_open", path=made["path"])
                result = await client.call_tool("heap_snapshot", {}, progress_callback=note)
                assert not result.is_error, result.content

            if way == "process":
                await call_ok(client, "heap_attach", pid=proc.pid)
            await snapshot("before")
            _leak(proc, status, facts["batch"])
            await snapshot("after")
            diff = await call_ok(client, "heap_diff")
            top = diff["changes"][0]
            kind = "process" if way == "process" else "dump"
            assert (diff["beforeSource"]["kind"], diff["afterSource"]["kind"]) == (kind, kind)
            if way == "dumps":  # two dumps: each snapshot names its own file
                assert diff["beforeSource"]["path"].endswith("before.dmp")
                assert diff["afterSource"]["path"].endswith("after.dmp")
            assert (top["type"], top["countDelta"]) == (facts["type"], facts["batch"]), diff["changes"][:3]
            assert top["sizeDelta"] > 0 and top["retainedDelta"] >= top["sizeDelta"]
            assert progress and progress[-1][0] == progress[-1][1] and progress[-1][1], progress

            some = await call_ok(client, "heap_instances", type_name=facts["type"], count=1)
            assert some["total"] == facts["batch"] and some["truncated"]
            why = (await call_ok(client, "heap_retention", address=some["instances"][0]["address"]))["retention"]
            root = why["paths"][0]["root"]
            assert (why["reachable"], root["kind"], root["name"]) == (True, "static", facts["holder"]), why
            types = [s["type"] for s in why["paths"][0]["steps"]]
            assert types[0].startswith("System.Collections.Generic.List") and types[-1] == facts["type"], types


@pytest.mark.timeout(180)
@pytest.mark.parametrize("tasks", [False, True], ids=["plain", "declaring-tasks"])
async def test_a_cancelled_request_stops_the_heap_walk_and_the_next_one_answers(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, tasks: bool) -> None:
    """Also for a client that declares the tasks extension: cancelled before the call became a
    task (pyinspect.server.tasks), the request still stops its walk."""
    status = tmp_path / "status.json"
    with running_target("LeakStory", str(status)) as proc:
        wait_for_file(status, timeout=60, proc=proc)
        batch = json.loads(status.read_text())["batch"]
        for held in range(batch, 21 * batch, batch):  # 200,000 objects: a walk that takes a while
            _leak(proc, status, held)
        extensions = [advertise("io.modelcontextprotocol/tasks")] if tasks else []
        async with Client(create_server(), extensions=extensions) as client:
            await call_ok(client, "heap_attach", pid=proc.pid)
            caplog.set_level(logging.INFO, logger="pyinspect.server.tools.heap")
            with pytest.raises(Exception, match="(?i)timed out|timeout"):
                await client.call_tool("heap_stats", {}, read_timeout_seconds=0.05)
            deadline = time.monotonic() + 60
            while "the request was cancelled" not in caplog.text and time.monotonic() < deadline:
                await anyio.sleep(0.05)
            # stopped at the walk's next batch, or (a walk quicker than the cancel) in the phase after it under way
            assert "heap walk stopped at" in caplog.text or "heap walk had ended; cancelling " in caplog.text
            stats = await call_ok(client, "heap_stats", top=1000)
            leaked = next(t for t in stats["types"] if t["type"] == "LeakStory.LeakedSession")
            assert leaked["count"] == 20 * batch


@pytest.mark.timeout(180)
async def test_the_leak_story_in_a_paused_debug_session(tmp_path: Path) -> None:
    """Stopped in SessionCache.Remember after each batch: snapshot, continue to the next
    batch, snapshot; the diff and the retention path read the paused debuggee."""
    status = tmp_path / "status.json"
    async with Client(create_server()) as client:
        await call_ok(client, "breakpoint_set", file=str(target_source("LeakStory", "SessionCache.cs")),
                      line=marker_line("LeakStory", "leaked", "SessionCache.cs"))
        await call_ok(client, "debug_launch", program=str(target_dll("LeakStory")), args=[str(status), "--auto"])
        for stop_number in (1, 2):
            stop = await call_ok(client, "debug_wait", timeout_ms=60000)
            assert stop["state"] == "paused", stop
            snapshot = await call_ok(client, "heap_snapshot")
            assert snapshot["source"]["kind"] == "debug_session"
            if stop_number == 1:
                await call_ok(client, "debug_continue", wait=False)
        cache = (await call_ok(client, "heap_retention", expression="Sessions"))["retention"]  # a name in scope
        assert cache["type"].startswith("System.Collections.Generic.List") and cache["reachable"], cache
        assert cache["paths"][0]["root"]["name"] == "LeakStory.SessionCache.Sessions"
        facts = json.loads(status.read_text())
        diff = await call_ok(client, "heap_diff", before="s1", after="s2")
        top = diff["changes"][0]
        assert (top["type"], top["countDelta"]) == (facts["type"], facts["batch"]), diff["changes"][:3]
        some = await call_ok(client, "heap_instances", type_name=facts["type"], count=1)
        why = (await call_ok(client, "heap_retention", address=some["instances"][0]["address"]))["retention"]
        assert (why["paths"][0]["root"]["kind"], why["paths"][0]["root"]["name"]) == ("static", facts["holder"])
        await call_ok(client, "debug_disconnect")
