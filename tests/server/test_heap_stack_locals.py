"""Stack roots named by their local: HeapGraphTruth paused under the adapter at its
`truth_written` stop holds a Node only in Main's local `local` and another only in
HoldOnStack's local `mine` (on its own thread). heap_retention of each names the local
exactly as the source writes it, on the thread the debugger knows by the same id; the
same process read by heap_attach (no debugger) keeps the frame and names no local."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_calls import call_ok
from support.targets import marker_line, read_truth, target_dll, target_source, wait_for_file

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio

HELD = [("stackOnly", "local", "Program.<Main>$("), ("threadLocal", "mine", "HeapGraphTruth.Graphs.HoldOnStack(")]


@pytest.mark.timeout(180)
async def test_a_paused_sessions_stack_roots_name_their_locals_a_heap_alone_does_not(tmp_path: Path) -> None:
    truth_file = tmp_path / "truth.json"
    async with Client(create_server()) as client:
        await call_ok(client, "breakpoint_set", file=str(target_source("HeapGraphTruth")),
                      line=marker_line("HeapGraphTruth", "truth_written"))
        started = await call_ok(client, "debug_launch", program=str(target_dll("HeapGraphTruth")),
                                args=[str(truth_file)])
        stop = await call_ok(client, "debug_wait", timeout_ms=60000)
        assert stop["state"] == "paused", stop
        wait_for_file(truth_file)
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
            assert (root["name"], root["thread"], root["local"]) == (roots[key]["name"], roots[key]["thread"], None)
        await call_ok(client, "heap_close")
        await call_ok(client, "debug_disconnect")
