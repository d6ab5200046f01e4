"""The `diagnose` MCP tool on one sick program (Ailments starvation, .NET 10): from its dump
(dump_open) and from the running process (heap_attach), structured like the other tools, with
coded errors for no heap and bad thresholds; then the heap tools reuse the graph it built."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp_calls import call, call_ok
from support.ailments import Ailing, starved_with_dump

from pyinspect.server import create_server

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def starved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Ailing, Path]]:
    with starved_with_dump(tmp_path_factory.mktemp("starved-mcp")) as found:
        yield found


@pytest.mark.asyncio
async def test_diagnose_names_the_starvation_from_a_dump_and_a_process(starved: tuple[Ailing, Path]) -> None:
    ailing, dump = starved
    async with Client(create_server()) as client:
        assert (await call(client, "diagnose"))["error"]["code"] == "NO_HEAP"
        await call_ok(client, "dump_open", path=str(dump))
        answer = await call_ok(client, "diagnose")
        first = answer["findings"][0]
        assert answer["source"]["kind"] == "dump" and "crash" in answer["checked"]
        assert (first["kind"], first["severity"], first["confidence"]) == ("thread-pool-starvation", "critical", "high")
        assert {t["osThreadId"] for t in first["evidence"]["threads"]} == ailing.os_ids("pool-")
        assert all(t["frames"] for t in first["evidence"]["threads"])
        assert "heap_threadpool" in first["nextCalls"]
        refused = await call(client, "diagnose", thresholds={"retained_bytes": -1})
        assert refused["error"]["code"] == "INVALID_PARAMETER"
        refused = await call(client, "diagnose", thresholds={"no_such_threshold": 1})
        assert refused["error"]["code"] == "INVALID_PARAMETER" and "retained_bytes" in refused["error"]["message"]
        refused = await call(client, "diagnose", record_seconds=1.0)  # a dump has no GCs to record
        assert refused["error"]["code"] == "INVALID_PARAMETER" and "heap_attach" in refused["error"]["message"]
        stats = await call_ok(client, "heap_stats", top=5)  # the graph diagnose built is the heap tools' graph
        assert stats["source"]["kind"] == "dump"

        await call_ok(client, "heap_attach", pid=ailing.pid)
        live = await call_ok(client, "diagnose", thresholds={"starvation_queued": 1})
        assert live["source"]["kind"] == "process" and live["unchecked"]["crash"]
        assert live["findings"][0]["kind"] == "thread-pool-starvation"
        assert "memory-growth" in live["unchecked"]
        snapshot = await call_ok(client, "heap_snapshot")
        compared = await call_ok(client, "diagnose", baseline=snapshot["snapshotId"])
        assert "memory-growth" in compared["checked"] and compared["findings"][0]["kind"] == "thread-pool-starvation"
        assert not [f for f in compared["findings"] if f["kind"] == "memory-growth"]  # a pool that starves grows nothing
        unknown = await call(client, "diagnose", baseline="s99")
        assert unknown["error"]["code"] == "UNKNOWN_SNAPSHOT"
