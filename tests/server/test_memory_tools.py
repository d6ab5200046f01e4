"""object_inspect, object_summarize and collection_analyze over the MCP in-memory client,
against MemoryTruth stopped at a breakpoint under our adapter: every answer equals the
truth the debuggee computed of itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_calls import call_ok, error_code, stop_at_ready, with_client

pytestmark = pytest.mark.asyncio

COLLECTIONS = ["Ints", "Doubles", "WithNulls", "Points", "Mixed", "Dict", "Queue", "Stack", "Set", "Linked",
               "Sorted", "Concurrent", "ConcurrentQueue", "Hashtable", "ImmutableList", "Grid", "Jagged"]


def expected(want: dict[str, Any]) -> dict[str, Any]:
    summary = {key: want[key] for key in ("count", "elementType", "collectionType", "kind", "nullCount")}
    if "keyValuePairs" in want:
        summary.update(numericStats=None, typeDistribution=None, firstElements=None, lastElements=None,
                       keyValuePairs=want["keyValuePairs"])
    else:
        summary.update(numericStats=want["numericStats"], typeDistribution=want["typeDistribution"],
                       firstElements=want["first"], lastElements=want["last"], keyValuePairs=None)
    summary["isSampled"] = False
    return summary


@with_client
async def test_collections_from_locals_and_field_paths_match_the_truth(client: Client, tmp_path: Path) -> None:
    truth = await stop_at_ready(client, tmp_path)
    for name in COLLECTIONS:
        answer = await call_ok(client, "collection_analyze", expression=f"bag.{name}")
        assert answer == {"success": True, "summary": expected(truth["collections"][name])}, name
    local = await call_ok(client, "collection_analyze", expression="ints", max_preview_items=50)
    assert local["summary"]["count"] == 10 and len(local["summary"]["firstElements"]) == 10
    sampled = (await call_ok(client, "collection_analyze", expression="bag.Large", timeout_ms=1))["summary"]
    assert sampled["isSampled"] is True and 0 < sampled["sampledCount"] < sampled["count"]
    # the walk stopped early: the sample's end is not the list's end, so no lastElements
    assert sampled["lastElements"] is None and sampled["firstElements"][0]["index"] == 0, sampled
    assert await error_code(client, "collection_analyze", expression="customer") == "NOT_COLLECTION"
    assert await error_code(client, "collection_analyze", expression="nothing_here") == "VARIABLE_UNAVAILABLE"
    assert await error_code(client, "collection_analyze", expression="ints", max_preview_items=51) \
        == "INVALID_PARAMETER"
    await call_ok(client, "debug_disconnect")


@with_client
async def test_object_summarize_and_inspect_match_the_truth(client: Client, tmp_path: Path) -> None:
    truth = await stop_at_ready(client, tmp_path)
    want = truth["customer"]
    summary = (await call_ok(client, "object_summarize", expression="customer"))["summary"]
    assert (summary["typeName"], summary["size"], summary["isNull"]) == (want["typeName"], want["size"], False)
    assert summary["totalFieldCount"] == want["totalFieldCount"] and summary["inaccessibleFieldCount"] == 0
    assert {f["name"]: {"type": f["type"], "value": f["value"]} for f in summary["fields"]} == want["fields"]
    assert {f["name"]: f["reason"] for f in summary["interestingFields"]} == want["interesting"]
    assert sorted(summary["nullFields"]) == sorted(want["nullFields"])
    null = (await call_ok(client, "object_summarize", expression="customer.Address"))["summary"]
    assert null["isNull"] is True and null["fields"] == [] and null["size"] == 0

    inspection = (await call_ok(client, "object_inspect", object_ref="customer"))["inspection"]
    assert (inspection["address"], inspection["typeName"], inspection["size"]) == (
        want["address"], want["typeName"], want["size"])
    fields = {f["name"]: f for f in inspection["fields"]}
    for name, field in want["offsets"].items():
        assert (fields[name]["offset"], fields[name]["size"], fields[name]["value"]) == (
            field["offset"], field["size"], field["value"]), name
    cyclic = (await call_ok(client, "object_inspect", object_ref="self", depth=4))["inspection"]
    assert cyclic["hasCircularRef"] is True and cyclic["address"] == truth["self"]["address"]
    deep = (await call_ok(client, "object_inspect", object_ref="chain", depth=10))["inspection"]
    assert deep["truncated"] is True and deep["address"] == truth["chain"]["address"]
    struct = (await call_ok(client, "object_inspect", object_ref="box.Content"))["inspection"]
    assert struct["isValueType"] is True and struct["address"] is None
    assert {f["name"] for f in struct["fields"]} >= {"A", "Inner"}
    assert await error_code(client, "object_inspect", object_ref="chain", depth=11) == "DEPTH_EXCEEDED"
    assert await error_code(client, "object_inspect", object_ref="nothing_here") == "INVALID_REFERENCE"
    await call_ok(client, "debug_disconnect")


@with_client
async def test_memory_tools_need_a_paused_process(client: Client, tmp_path: Path) -> None:
    await stop_at_ready(client, tmp_path)
    running = await call_ok(client, "debug_continue", wait=False)
    assert running["state"] == "running", running
    assert await error_code(client, "collection_analyze", expression="ints") == "NOT_PAUSED"
    assert await error_code(client, "object_summarize", expression="customer") == "NOT_PAUSED"
    assert await error_code(client, "object_inspect", object_ref="customer") == "NOT_PAUSED"
    await call_ok(client, "debug_disconnect")
