"""Every error code of the seed tools and the session tools, through the in-memory
client: no session, a running process, unknown threads and frames, bad parameters,
unknown paths, failing expressions; the server answers each and keeps serving."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_calls import call_ok, error_code, error_json, story_line, story_source, with_client
from support.debuggee_loop import counting_loop
from support.targets import target_dll

pytestmark = pytest.mark.asyncio

SEED_TOOLS = ("stacktrace_get", "variables_get", "evaluate")


@pytest.fixture
def loop_pid(tmp_path: Path) -> Iterator[int]:
    with counting_loop(tmp_path) as (proc, _):
        yield proc.pid
        assert proc.poll() is None


async def threads_once_known(client: Client) -> list[dict[str, Any]]:
    """Right after an attach the adapter may not know the threads yet (bounded poll)."""
    for _ in range(100):
        threads: list[dict[str, Any]] = (await call_ok(client, "threads_list"))["threads"]
        if threads:
            return threads
        await anyio.sleep(0.05)
    raise AssertionError("threads_list stayed empty for 5 s after attach")


def args_for(tool: str) -> dict[str, str]:
    return {"expression": "x"} if tool == "evaluate" else {}


@with_client
async def test_without_a_session_every_tool_says_no_session(client: Client) -> None:
    for tool in ("threads_list", *SEED_TOOLS):
        assert await error_code(client, tool, **args_for(tool)) == "NO_SESSION", tool
    for tool in ("debug_wait", "debug_continue", "debug_pause", "debug_step", "debug_disconnect"):
        assert await error_code(client, tool) == "NO_SESSION", tool
    assert (await call_ok(client, "debug_state"))["state"] == "not_started"


@with_client
async def test_while_running_the_seed_tools_say_not_paused(client: Client, loop_pid: int) -> None:
    await call_ok(client, "debug_attach", pid=loop_pid)
    for tool in SEED_TOOLS:
        assert await error_code(client, tool, **args_for(tool)) == "NOT_PAUSED", tool
    assert await error_code(client, "debug_continue") == "NOT_PAUSED"
    assert await error_code(client, "debug_step", mode="into") == "NOT_PAUSED"
    threads = await threads_once_known(client)
    assert all(t["state"] == "running" and t["is_current"] is False for t in threads)
    await call_ok(client, "debug_disconnect")


@with_client
async def test_session_tools_reject_bad_targets_and_parameters(client: Client, tmp_path: Path) -> None:
    assert await error_code(client, "debug_launch", program=str(tmp_path / "missing.dll")) == "INVALID_PARAMETER"
    assert await error_code(client, "debug_attach", pid=999_999_999) == "PROCESS_NOT_FOUND"
    assert await error_code(client, "debug_attach", pid="one") == "INVALID_PARAMETER"
    assert await error_code(client, "breakpoint_set", file="Program.cs", line=0) == "INVALID_PARAMETER"
    assert await error_code(client, "breakpoint_set", file="Program.cs", line=3, hit_count=0) == "INVALID_PARAMETER"
    assert await error_code(client, "breakpoint_remove", id=12345) == "UNKNOWN_BREAKPOINT"
    assert await error_code(client, "breakpoint_set_exception", filter="some") == "INVALID_PARAMETER"
    assert await error_code(client, "debug_wait", timeout_ms=-1) == "INVALID_PARAMETER"
    exception = await call_ok(client, "breakpoint_set_exception", filter="user_unhandled")
    assert exception["applied"] is False  # kept for the next launch
    assert (await call_ok(client, "breakpoint_list"))["exception_filters"] == ["user_unhandled"]


@with_client
async def test_paused_seed_tools_answer_each_error_code(client: Client) -> None:
    await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("price"))
    await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")))
    assert (await call_ok(client, "debug_wait", timeout_ms=20000))["state"] == "paused"

    for tool in SEED_TOOLS:
        assert await error_code(client, tool, thread_id=987_654_321, **args_for(tool)) == "UNKNOWN_THREAD", tool
    assert await error_code(client, "variables_get", frame_index=500) == "UNKNOWN_FRAME"
    assert await error_code(client, "evaluate", expression="quantity", frame_index=500) == "UNKNOWN_FRAME"
    assert await error_code(client, "stacktrace_get", max_frames=0) == "INVALID_PARAMETER"
    assert await error_code(client, "stacktrace_get", max_frames=100_000) == "INVALID_PARAMETER"
    assert await error_code(client, "stacktrace_get", start_frame=-1) == "INVALID_PARAMETER"
    assert await error_code(client, "stacktrace_get", thread_id="main") == "INVALID_PARAMETER"
    assert await error_code(client, "variables_get", scope="globals") == "INVALID_PARAMETER"
    assert await error_code(client, "variables_get", frame_index=-2) == "INVALID_PARAMETER"
    assert await error_code(client, "variables_get", expand="nosuch.field") == "VARIABLE_UNAVAILABLE"
    assert await error_code(client, "evaluate", expression="") == "INVALID_PARAMETER"
    assert await error_code(client, "evaluate", expression="quantity", format="octal") == "INVALID_PARAMETER"

    failed = await client.call_tool("evaluate", {"expression": "nosuch_name"})
    failed_answer = error_json(failed)
    assert failed_answer["error"] is True and failed_answer["code"] == "EVAL_EXCEPTION"
    assert "nosuch_name" in failed_answer["message"] and failed_answer["type"]

    # evaluate is a read-only tool: an assignment is refused and changes nothing
    refused = await client.call_tool("evaluate", {"expression": "quantity = 9"})
    assert "it assigns" in error_json(refused)["message"]

    # after all of that the server and the session still answer
    assert (await call_ok(client, "evaluate", expression="quantity"))["result"] == "1"
    await call_ok(client, "debug_disconnect")
