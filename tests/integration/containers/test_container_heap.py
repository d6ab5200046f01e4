"""A .NET process in its own pid and mount namespaces, its runtime at a path that exists
only inside, read from the host: the process list tells the truth (pid inside, runtime
version through its root), the heap read live and from a dump made from the host (by the
runtime's own createdump, asked over its diagnostics socket) equals what the program
itself wrote, and the MCP tools do the same by host pid."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from container_targets import ContainerTarget
from mcp import Client
from support.memory_contract import expected_summary

from pyinspect.heap import HeapReader, create_dump
from pyinspect.server import create_server
from pyinspect.targets.processes import list_dotnet_processes
from pyinspect.targets.runtimes import runtime_of

COLLECTIONS = ["Ints", "Dict", "Queue", "Stack", "Set", "Sorted", "Concurrent", "ImmutableList", "Grid", "Large"]


def expect_row(row: dict[str, Any] | None, target: ContainerTarget) -> None:
    assert row is not None, f"pid {target.pid} ({target.app.name}) is not listed"
    assert (row["namespacePid"], row["inContainer"]) == (target.truth["pid"], True)
    assert (row["canDebug"], row["canReadHeap"], row.get("reason")) == (True, True, None)
    runtime = row["runtime"]
    assert str(runtime["version"]).startswith(target.app.version_prefix)
    assert runtime["selfContained"] is target.app.self_contained
    inside = "/app" if target.app.self_contained else "/opt/ctr-dotnet/shared/Microsoft.NETCore.App/"
    assert str(runtime["targetFolder"]).startswith(inside)
    assert not Path(runtime["targetFolder"]).exists(), "the runtime must exist only inside the container"
    assert runtime["folder"] == f"/proc/{target.pid}/root{runtime['targetFolder']}"
    assert runtime["dacPath"] == f"{runtime['folder']}/libmscordaccore.so"


def test_the_process_list_shows_the_pid_inside_and_the_runtime_read_through_its_root(
        container_target: ContainerTarget) -> None:
    rows = {p.pid: p.model_dump(by_alias=True) for p in list_dotnet_processes()}
    expect_row(rows.get(container_target.pid), container_target)


def test_pyinspect_ps_json_shows_the_containerised_process(container_target: ContainerTarget) -> None:
    cli = Path(sys.executable).parent / "pyinspect"
    result = subprocess.run([str(cli), "ps", "--json"], capture_output=True, text=True, timeout=120, check=True)
    rows = {p["pid"]: p for p in json.loads(result.stdout)}
    expect_row(rows.get(container_target.pid), container_target)


def test_the_heap_read_live_by_host_pid_equals_the_programs_truth(container_target: ContainerTarget) -> None:
    with HeapReader.attach(container_target.pid) as reader:
        check_truth(reader, container_target.truth)
        stats = {row.type: row.count for row in reader.stats()}
    assert stats["MemoryTruth.Bag"] == 1


def test_a_dump_made_from_the_host_reads_back_equal_to_the_live_heap(
        container_target: ContainerTarget, tmp_path: Path) -> None:
    dump = create_dump(container_target.pid, tmp_path / "ctr.dmp")
    assert dump == (tmp_path / "ctr.dmp").resolve() and dump.stat().st_size > 0
    leftovers = list(container_target.container.inside("/tmp").glob("pyinspect-*.dmp"))
    assert leftovers == [], "the dump must be moved out of the container's /tmp"
    # The dump names the runtime at its path inside; that build is reachable through the
    # running container's root (a runtime pack of that build would do for a dump alone).
    runtime = runtime_of(container_target.pid)
    with HeapReader.open_dump(dump, dac_search_path=runtime.folder) as dumped, \
            HeapReader.attach(container_target.pid) as live:
        check_truth(dumped, container_target.truth)
        assert ({r.type: (r.count, r.total_size) for r in dumped.stats()}
                == {r.type: (r.count, r.total_size) for r in live.stats()})


def check_truth(reader: HeapReader, truth: dict[str, Any]) -> None:
    want = truth["customer"]
    obj = reader.object(want["address"])
    assert (obj.address, obj.type_name, obj.size) == (want["address"], want["typeName"], want["size"])
    fields = {f.name: f for f in obj.fields}
    for name, field in want["offsets"].items():
        if "." not in name:
            got = fields[name]
            assert (name, got.offset, got.size, got.value) == (name, field["offset"], field["size"], field["value"])
    for name in COLLECTIONS:
        expected = truth["collections"][name]
        got = reader.analyze_collection(expected["address"], max_preview_items=5, timeout_ms=20_000)
        assert (name, got.to_contract()) == (name, expected_summary(expected))


@pytest.mark.asyncio
async def test_mcp_heap_attach_and_heap_stats_by_host_pid(container_target: ContainerTarget) -> None:
    async with Client(create_server()) as client:
        listed = (await client.call_tool("process_list", {})).structured_content
        assert listed is not None
        row = next((p for p in listed["processes"] if p["pid"] == container_target.pid), None)
        expect_row(row, container_target)
        opened = await client.call_tool("heap_attach", {"pid": container_target.pid})
        assert not opened.is_error, opened.content
        result = await client.call_tool("heap_stats", {"filter": "all", "top": 500})
        assert not result.is_error, result.content
        answer = result.structured_content
        assert answer is not None and answer["source"]["pid"] == container_target.pid
        by_type = {t["type"]: t for t in answer["types"]}
        assert by_type["MemoryTruth.Bag"]["count"] == 1
        customer = container_target.truth["customer"]
        assert by_type[customer["typeName"]]["count"] >= 1
        await client.call_tool("heap_close", {})
