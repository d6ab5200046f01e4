"""`pyinspect ps` and the process_list MCP tool show each runtime's debuggee with its
version, deployment kind and what pyinspect can do with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from runtime_targets import VERSION_PREFIX, RuntimeTarget

from pyinspect.server import create_server
from pyinspect.targets.processes import list_dotnet_processes


def expect_listed(entry: dict[str, object] | None, target: RuntimeTarget) -> None:
    assert entry is not None, f"pid {target.pid} ({target.framework}) is not listed"
    runtime = entry["runtime"]
    assert isinstance(runtime, dict)
    assert str(runtime["version"]).startswith(VERSION_PREFIX[target.framework])
    assert runtime["selfContained"] is target.self_contained
    assert (entry["canDebug"], entry["canReadHeap"], entry.get("reason")) == (True, True, None)
    assert "MemoryTruth" in str(entry["commandLine"])


def test_the_process_list_shows_the_debuggee_with_its_runtime(runtime_target: RuntimeTarget) -> None:
    found = {p.pid: p.model_dump(by_alias=True) for p in list_dotnet_processes()}
    expect_listed(found.get(runtime_target.pid), runtime_target)


def test_pyinspect_ps_json_shows_the_debuggee(runtime_target: RuntimeTarget) -> None:
    cli = Path(sys.executable).parent / "pyinspect"
    result = subprocess.run([str(cli), "ps", "--json"], capture_output=True, text=True, timeout=60, check=True)
    found = {p["pid"]: p for p in json.loads(result.stdout)}
    expect_listed(found.get(runtime_target.pid), runtime_target)


@pytest.mark.asyncio
async def test_the_process_list_tool_shows_the_debuggee(runtime_target: RuntimeTarget) -> None:
    async with Client(create_server()) as client:
        result = await client.call_tool("process_list", {})
    answer = result.structured_content
    assert isinstance(answer, dict) and answer["success"] is True and not result.is_error
    found = {p["pid"]: p for p in answer["processes"]}
    expect_listed(found.get(runtime_target.pid), runtime_target)
