"""Every heap tool on HeapGraphTruth, in each of the three ways in: the paused debuggee
(debug_launch, debug_pause once its truth is written), the running process opened for its heap only
(heap_attach) and a dump of it (dump_create, dump_open). Answers equal the debuggee's
own truth: addresses, sizes, retained sizes and dominators known by construction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_calls import call_ok
from support.targets import (
    read_truth,
    running_target,
    target_dll,
    wait_for_file,
)

from pyinspect.server import create_server

GRAPHS = {"tree": ["a", "b", "c", "d"], "diamond": ["top", "left", "right", "shared", "leaf"],
          "cycle": ["c1", "c2", "c3"], "array": ["array", "third"]}
SINGLES = ["onlyStatic", "strongHandle", "pinnedHandle", "finalizer"]
NODE = "HeapGraphTruth.Node"

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def truth_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, dict[str, Any], Path]]:
    folder = tmp_path_factory.mktemp("heaptools")
    truth_file = folder / "truth.json"
    with running_target("HeapGraphTruth", str(truth_file)) as proc:
        wait_for_file(truth_file, timeout=60, proc=proc)
        yield proc.pid, read_truth(truth_file), folder


def _entries(truth: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    rows = [(f"{g}.{n}", truth[g][n]) for g, names in GRAPHS.items() for n in names]
    return rows + [(k, truth[k]) for k in SINGLES]


async def _open(client: Client, way: str, pid: int, folder: Path) -> dict[str, Any]:
    """Open HeapGraphTruth the given way; the truth the heap tools must answer."""
    if way == "process":
        opened = await call_ok(client, "heap_attach", pid=pid)
        return dict(opened["source"])
    if way == "dump":
        made = await call_ok(client, "dump_create", pid=pid, path=str(folder / f"truth-{pid}.dmp"))
        assert made["pid"] == pid and made["sizeBytes"] > 1_000_000, made
        kept = f"{made['path']}.dac"
        assert made["keptBeside"] == [f"{kept}/{name}" for name in ("libmscordaccore.so", "libcoreclr.so",
                                                                     "HeapGraphTruth.pdb")], made
        opened = await call_ok(client, "dump_open", path=made["path"], offline=True)
        return dict(opened["source"])
    truth_file = folder / "debugged-truth.json"
    await call_ok(client, "debug_launch", program=str(target_dll("HeapGraphTruth")), args=[str(truth_file)])
    wait_for_file(truth_file, timeout=60)
    stop = await call_ok(client, "debug_pause")
    assert stop["state"] == "paused", stop
    return {"kind": "debug_session"}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("way", ["debug_session", "process", "dump"])
async def test_every_heap_tool_answers_the_truth(way: str, truth_process: tuple[int, dict[str, Any], Path]) -> None:
    pid, truth, folder = truth_process
    async with Client(create_server()) as client:
        await _open(client, way, pid, folder)
        if way == "debug_session":
            truth = read_truth(folder / "debugged-truth.json")
        await _check_retained_and_sources(client, truth, way)
        await _check_retention(client, truth)
        await _check_instances_and_stats(client, truth)
        await _check_inventory(client)
        await _check_snapshots(client, way)
        await _check_object_by_address(client, truth, way)


async def _check_retained_and_sources(client: Client, truth: dict[str, Any], way: str) -> None:
    entries = _entries(truth)
    answer = await call_ok(client, "heap_retained", addresses=[e["address"] for _, e in entries])
    source = answer["source"]
    assert source["kind"] == way and source["mayHaveChanged"] == (way == "process"), source
    assert ("warning" in source) == (way == "process"), source
    for (name, expected), row in zip(entries, answer["objects"], strict=True):
        assert (name, row["address"], row["type"], row["size"], row["retainedSize"], row["dominator"], row["live"]) \
            == (name, expected["address"], expected["type"], expected["size"], expected["retained"],
                expected["dominator"], True)
    top = await call_ok(client, "heap_retained", top=5)
    sizes = [r["retainedSize"] for r in top["objects"]]
    assert len(sizes) == 5 and sizes == sorted(sizes, reverse=True) and top["truncated"] is True
    by_type = await call_ok(client, "heap_retained", by_type=True, top=1000)
    assert NODE in {t["type"] for t in by_type["types"]}
    island = await call_ok(client, "heap_retained", addresses=[truth["garbage"]["address"]])
    assert (island["objects"][0]["live"], island["objects"][0]["retainedSize"]) == (False, 0)


async def _check_retention(client: Client, truth: dict[str, Any]) -> None:
    diamond = truth["diamond"]
    found = (await call_ok(client, "heap_retention", address=diamond["leaf"]["address"]))["retention"]
    path = found["paths"][0]
    assert (found["complete"], found["reachable"]) == (True, True)
    assert (path["root"]["kind"], path["root"]["name"]) == ("static", "HeapGraphTruth.Roots.Diamond")
    steps = [(s["address"], s.get("field")) for s in path["steps"]]
    assert steps[0] == (diamond["top"]["address"], None)
    assert steps[2:] == [(diamond["shared"]["address"], "Left"), (diamond["leaf"]["address"], "Left")]
    garbage = (await call_ok(client, "heap_retention", address=truth["garbage"]["address"]))["retention"]
    assert (garbage["reachable"], garbage["complete"], garbage["paths"]) == (False, True, [])
    handle = (await call_ok(client, "heap_retention", address=truth["strongHandle"]["address"]))["retention"]
    assert handle["paths"][0]["root"]["kind"] == "handle"


async def _check_instances_and_stats(client: Client, truth: dict[str, Any]) -> None:
    live = await call_ok(client, "heap_stats", filter="live", top=1000)
    node = next(t for t in live["types"] if t["type"] == NODE)
    assert live["summary"]["liveObjects"] + live["summary"]["deadObjects"] == live["summary"]["objects"]
    dead = await call_ok(client, "heap_stats", filter="dead", top=1000)
    assert next(t for t in dead["types"] if t["type"] == NODE)["count"] >= 2  # the garbage island
    everything = await call_ok(client, "heap_stats", filter="all", top=3)
    assert len(everything["types"]) == 3 and everything["truncated"] and everything["totalTypes"] > 3
    first = await call_ok(client, "heap_instances", type_name=NODE, start=0, count=1000)
    total = first["total"]
    assert total == node["count"] + next(t for t in dead["types"] if t["type"] == NODE)["count"]
    assert (len(first["instances"]), first["truncated"], first.get("nextStart")) == (total, False, None)
    expected = {e["address"] for _, e in _entries(truth) if e["type"] == NODE}
    assert expected <= {i["address"] for i in first["instances"]}
    page = await call_ok(client, "heap_instances", type_name=NODE, start=2, count=3)
    assert page["instances"] == first["instances"][2:5] and page["nextStart"] == 5 and page["truncated"]


async def _check_inventory(client: Client) -> None:
    strings = await call_ok(client, "heap_strings", top=5)
    assert all(s["count"] > 1 and s["wastedBytes"] == (s["count"] - 1) * s["size"] for s in strings["strings"])
    assert strings["wastedBytes"] >= sum(s["wastedBytes"] for s in strings["strings"])
    layout = await call_ok(client, "heap_segments")
    assert {g["generation"] for g in layout["generations"]} >= {"gen0"}
    assert sum(g["pinnedObjects"] for g in layout["generations"]) >= 1
    assert sum(s["pinnedObjects"] for s in layout["segments"]) == sum(g["pinnedObjects"] for g in layout["generations"])
    assert layout["totalSegments"] == len(layout["segments"]) and not layout["truncated"]
    queue = await call_ok(client, "heap_finalizer_queue")
    assert {r["type"]: r for r in queue["types"]}["HeapGraphTruth.Doomed"]["ready"] == 1


async def _check_snapshots(client: Client, way: str) -> None:
    first = await call_ok(client, "heap_snapshot")
    second = await call_ok(client, "heap_snapshot")
    assert (first["snapshotId"], second["snapshotId"], second["snapshots"]) == ("s1", "s2", ["s1", "s2"])
    assert first["source"]["kind"] == way
    changed = await call_ok(client, "heap_diff")
    assert (changed["before"], changed["after"]) == ("s1", "s2")
    if way != "process":  # nothing runs between the two: a dump, or a paused process
        assert (changed["totalChanges"], changed["changes"]) == (0, [])


async def _check_object_by_address(client: Client, truth: dict[str, Any], way: str) -> None:
    """heap_object reads an address in any heap; object_inspect takes it in a paused session."""
    only = truth["onlyStatic"]
    found = await call_ok(client, "heap_object", address=only["address"], depth=2)
    inspection = found["inspection"]
    assert (inspection["address"], inspection["typeName"], inspection["size"]) == \
        (only["address"], only["type"], only["size"])
    assert found["source"]["kind"] == way
    if way == "debug_session":
        same = await call_ok(client, "object_inspect", object_ref=only["address"], depth=2)
        assert same["inspection"] == inspection
