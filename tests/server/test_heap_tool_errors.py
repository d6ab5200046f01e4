"""Bad input to each heap tool answers a clear coded error: no heap open, a process that
is gone or not .NET, a file that is no dump, an unknown type, an address that is no
object, a snapshot never taken, parameters out of range."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp_calls import call_ok, error_code
from support.targets import running_target, wait_for_file

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio

GRAPH_TOOLS = ["heap_stats", "heap_retained", "heap_strings", "heap_segments", "heap_finalizer_queue", "heap_snapshot"]


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A dump of LeakStory (small and quick to write)."""
    from pyinspect.heap.reader import create_dump

    folder = tmp_path_factory.mktemp("heaperrors")
    with running_target("LeakStory", str(folder / "status.json")) as proc:
        wait_for_file(folder / "status.json", timeout=60, proc=proc)
        yield create_dump(proc.pid, folder / "leakstory.dmp")


async def test_with_no_heap_open_every_heap_tool_says_how_to_open_one(tmp_path: Path) -> None:
    async with Client(create_server()) as client:
        for tool in GRAPH_TOOLS:
            assert await error_code(client, tool) == "NO_HEAP", tool
        assert await error_code(client, "heap_instances", type_name="System.String") == "NO_HEAP"
        assert await error_code(client, "heap_retention", address="0x1000") == "NO_HEAP"
        assert await error_code(client, "heap_object", address="0x1000") == "NO_HEAP"
        assert await error_code(client, "heap_retention", expression="this") == "NO_HEAP"
        assert await error_code(client, "heap_diff") == "UNKNOWN_SNAPSHOT"
        assert await error_code(client, "heap_close") == "INVALID_PARAMETER"
        assert await error_code(client, "dump_create", path=str(tmp_path / "x.dmp")) == "INVALID_PARAMETER"


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A running process that is no .NET process."""
    process = subprocess.Popen(["sleep", "60"])
    yield process
    process.kill()
    process.wait()


async def test_processes_and_files_that_cannot_be_opened(tmp_path: Path, sleeper: subprocess.Popen[bytes]) -> None:
    not_a_dump = tmp_path / "notes.txt"
    not_a_dump.write_text("this is no core dump\n" * 100)
    async with Client(create_server()) as client:
        assert await error_code(client, "heap_attach", pid=999_999_999) == "PROCESS_NOT_FOUND"
        assert await error_code(client, "heap_attach", pid=-4) == "INVALID_PARAMETER"
        assert await error_code(client, "heap_attach", pid=sleeper.pid) == "NOT_DOTNET_PROCESS"
        assert await error_code(client, "dump_open", path=str(not_a_dump)) == "DUMP_ERROR"
        assert await error_code(client, "dump_open", path=str(tmp_path / "missing.dmp")) == "DUMP_ERROR"
        assert await error_code(client, "dump_create", pid=999_999_999, path=str(tmp_path / "y.dmp")) \
            == "PROCESS_NOT_FOUND"
        assert await error_code(client, "dump_create", pid=sleeper.pid, path=str(tmp_path / "y.dmp")) \
            == "NOT_DOTNET_PROCESS"
        assert await error_code(client, "dump_create", pid=sleeper.pid, path="relative.dmp") \
            == "INVALID_PARAMETER"
        assert await error_code(client, "dump_create", pid=sleeper.pid, path=str(not_a_dump)) \
            == "INVALID_PARAMETER"


async def test_questions_the_heap_cannot_answer(dump: Path) -> None:
    async with Client(create_server()) as client:
        await call_ok(client, "dump_open", path=str(dump))
        assert await error_code(client, "heap_instances", type_name="LeakedSession") == "UNKNOWN_TYPE"
        assert await error_code(client, "heap_instances", type_name="No.Such.Type") == "UNKNOWN_TYPE"
        assert await error_code(client, "heap_instances", type_name="System.String", count=0) == "INVALID_PARAMETER"
        assert await error_code(client, "heap_instances", type_name="System.String", start=-1) == "INVALID_PARAMETER"
        assert await error_code(client, "heap_retention", address="0x10") == "NOT_AN_OBJECT"
        assert await error_code(client, "heap_retention", address="pancake") == "INVALID_PARAMETER"
        assert await error_code(client, "heap_retention") == "INVALID_PARAMETER"
        assert await error_code(client, "heap_retention", address="0x10", expression="x") == "INVALID_PARAMETER"
        assert await error_code(client, "heap_retention", expression="SessionCache.Sessions") == "INVALID_PARAMETER"
        assert await error_code(client, "heap_retained", addresses=["0x10"]) == "NOT_AN_OBJECT"
        assert await error_code(client, "heap_object", address="0x10") == "NOT_AN_OBJECT"
        assert await error_code(client, "heap_object", address="0x10", depth=11) == "DEPTH_EXCEEDED"
        assert await error_code(client, "heap_retained", addresses=["0x10"], by_type=True) == "INVALID_PARAMETER"
        assert await error_code(client, "heap_stats", filter="old") == "INVALID_PARAMETER"
        assert await error_code(client, "heap_stats", top=0) == "INVALID_PARAMETER"
        assert await error_code(client, "heap_strings", top=5000) == "INVALID_PARAMETER"
        banner = [s for s in (await call_ok(client, "heap_strings", top=1000))["strings"] if s["value"][:1] == "="]
        assert banner == [{"value": "=" * 256, "valueTruncated": True, "count": 2, "size": banner[0]["size"],
                           "wastedBytes": banner[0]["size"]}], banner  # a 1,000-character value, cut
        assert await error_code(client, "heap_finalizer_queue", top=-1) == "INVALID_PARAMETER"
        await call_ok(client, "heap_snapshot")
        assert await error_code(client, "heap_diff") == "UNKNOWN_SNAPSHOT"
        await call_ok(client, "heap_snapshot")
        assert await error_code(client, "heap_diff", before="s99") == "UNKNOWN_SNAPSHOT"
        assert await error_code(client, "heap_diff", top=0) == "INVALID_PARAMETER"
        assert (await call_ok(client, "heap_diff", before="s2", after="s1"))["totalChanges"] == 0
        await call_ok(client, "heap_close")
        assert await error_code(client, "heap_stats") == "NO_HEAP"


async def test_a_running_debuggee_must_be_paused_or_opened_on_its_own(tmp_path: Path) -> None:
    from support.targets import target_dll

    async with Client(create_server()) as client:
        await call_ok(client, "debug_launch", program=str(target_dll("LeakStory")), args=[str(tmp_path / "s.json")])
        assert await error_code(client, "heap_stats") == "NOT_PAUSED"
        await call_ok(client, "debug_disconnect")
