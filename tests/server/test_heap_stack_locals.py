"""Stack roots named by their local: HeapGraphTruth paused under the adapter once its
truth is written (Main blocked in Monitor.Wait, the holder thread asleep; with stdin at EOF
the writer's Environment.Exit waits on the blocked finalizer for good) holds a Node
only in Main's local `local` and another only in HoldOnStack's local `mine` (on its own
thread). heap_retention of each names the local exactly as the source writes it, on the
thread the debugger knows by the same id; the same process read by heap_attach (no
debugger) keeps the frame and names no local."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp_calls import call_ok
from support.targets import read_truth, target_dll, wait_for_file

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio

HELD = [("stackOnly", "local", "Program.<Main>$("), ("threadLocal", "mine", "HeapGraphTruth.Graphs.HoldOnStack(")]


@pytest.mark.timeout(180)
async def test_a_paused_sessions_stack_roots_name_their_locals_a_heap_alone_does_not(tmp_path: Path) -> None:
    truth_file = tmp_path / "truth.json"
    async with Client(create_server()) as client:
        started = await call_ok(client, "debug_launch", program=str(target_dll("HeapGraphTruth")),
                                args=[str(truth_file)])
        await anyio.to_thread.run_sync(lambda: wait_for_file(truth_file, timeout=60))
        stop = await call_ok(client, "debug_pause")
        assert stop["state"] == "paused", stop
        truth = read_truth(truth_file)
        threads = {t["id"] for t in (await call_ok(client, "threads_list"))["threads"]}

        roots = {}
        for key, local, method in HELD:
            answer = await call_ok(client, "heap_retention", address=truth[key]["address"])
            assert answer["source"]["kind"] == "debug_session"
            why = answer["retention"]
            root = why["paths"][0]["root"]
            assert (why["complete"], why["reachable"], root["kind"]) == (True, True, "stack"), why
            assert method in root["name"], root
            assert root["thread"] in threads, (root, threads)  # the debugger's thread id is the OS id
            assert root["local"] == local, root
            roots[key] = root

        pid = stop.get("pid") or started.get("pid")
        assert isinstance(pid, int), (started, stop)
        await call_ok(client, "heap_attach", pid=pid)
        for key, _, _ in HELD:
            answer = await call_ok(client, "heap_retention", address=truth[key]["address"])
            assert answer["source"]["kind"] == "process"
            root = answer["retention"]["paths"][0]["root"]
            assert (root["name"], root["thread"]) == (roots[key]["name"], roots[key]["thread"])
            assert "local" not in root, root  # unknown without the debugger: not given
        await call_ok(client, "heap_close")
        await call_ok(client, "debug_disconnect")
