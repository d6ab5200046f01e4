"""Each tool against its contract and issue 6's list: names, titles, read-only and
destructive annotations, descriptions that say when to use the tool; every parameter of
the memory tools validated with the contract's codes; stepping into and out of calls;
attach, pause and detach leaving the process running; debug_wait's bound."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp_calls import (
    call_ok,
    error_code,
    error_json,
    stop_at_ready,
    story_line,
    story_source,
    with_client,
)
from support.debuggee_loop import counter_moves, counting_loop
from support.targets import target_dll

pytestmark = pytest.mark.asyncio

READ_ONLY = {"debug_state", "debug_wait", "breakpoint_list", "threads_list", "stacktrace_get", "variables_get",
             "evaluate", "object_inspect", "object_summarize", "collection_analyze", "process_list",
             "process_output", "exception_get",
             # the heap tools: opening a heap (heap_attach, dump_open) reads it and changes nothing
             "heap_attach", "dump_open", "heap_close", "heap_stats", "heap_instances", "heap_retention",
             "heap_retained", "heap_strings", "heap_segments", "heap_finalizer_queue", "heap_snapshot", "heap_diff",
             "heap_object", "heap_threads", "heap_locks", "heap_async", "heap_exceptions", "heap_threadpool",
             "diagnose"}
CHANGING = {"debug_launch", "debug_attach", "debug_disconnect", "debug_continue", "debug_pause", "debug_step",
            "breakpoint_set", "breakpoint_remove", "breakpoint_set_exception", "evaluate_with_calls",
            "dump_create",  # writes a file
            "trace_start", "trace_stop",  # start and end a recording: not idempotent
            "handle_close"}  # ends what a handle names
CONTRACT_TITLES = {"object_inspect": "Inspect Object", "object_summarize": "Summarize Object",
                   "collection_analyze": "Analyze Collection"}


@pytest.fixture
def loop(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter
        assert proc.poll() is None, "the debuggee died"


@with_client
async def test_every_tool_is_titled_annotated_and_says_when_to_use_it(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == READ_ONLY | CHANGING
    for name, tool in tools.items():
        hints = tool.annotations
        assert hints is not None and tool.title and tool.output_schema, name
        assert hints.read_only_hint is (name in READ_ONLY), name
        assert hints.idempotent_hint is (name in READ_ONLY), name
        assert hints.destructive_hint is (name in ("debug_launch", "debug_disconnect", "evaluate_with_calls",
                                                   "handle_close")), name
        assert hints.open_world_hint is False, name
        assert tool.description and len(tool.description) > 60, name
        for parameter, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}.{parameter} has no description"
    for name, title in CONTRACT_TITLES.items():
        assert tools[name].title == title
    for name in ("threads_list", "stacktrace_get", "variables_get", "evaluate", "object_inspect",
                 "object_summarize", "collection_analyze", "debug_wait", "breakpoint_list"):
        assert "use" in (tools[name].description or "").lower(), f"{name} does not say when to use it"
    assert tools["collection_analyze"].input_schema["required"] == ["expression"]
    assert tools["collection_analyze"].input_schema["properties"]["max_preview_items"]["default"] == 5
    step = tools["debug_step"].input_schema["properties"]["mode"]
    assert step["enum"] == ["over", "into", "out"]
    exception = tools["breakpoint_set_exception"].input_schema["properties"]["filter"]
    assert exception["enum"] == ["all", "user_unhandled"]


@with_client
async def test_memory_tools_validate_every_parameter(client: Client, tmp_path: Path) -> None:
    await stop_at_ready(client, tmp_path)
    inspect_codes = {
        "INVALID_PARAMETER": [{"depth": "deep"}, {"depth": 0}, {"frame_index": -1}, {"thread_id": "main"}],
        "DEPTH_EXCEEDED": [{"depth": 11}],
        "UNKNOWN_FRAME": [{"frame_index": 50}],
        "UNKNOWN_THREAD": [{"thread_id": 987_654_321}],
        "INVALID_REFERENCE": [{"object_ref": "customer.Address.Street"}, {"object_ref": "nothing_here"}],
    }
    for code, cases in inspect_codes.items():
        for case in cases:
            assert await error_code(client, "object_inspect", **{"object_ref": "customer", **case}) == code, case
    codes = {
        "INVALID_PARAMETER": [{"max_preview_items": 0}, {"max_preview_items": 51}, {"max_preview_items": "many"},
                              {"timeout_ms": 0}, {"expression": ""}, {"frame_index": -1}, {"thread_id": "main"}],
        "UNKNOWN_FRAME": [{"frame_index": 50}],
        "UNKNOWN_THREAD": [{"thread_id": 987_654_321}],
        "VARIABLE_UNAVAILABLE": [{"expression": "nothing_here"}],
        "EVAL_EXCEPTION": [{"expression": "customer.Address.Street"}, {"expression": "customer.NoSuchField"}],
    }
    for tool, subject in (("object_summarize", "customer"), ("collection_analyze", "ints")):
        for code, cases in codes.items():
            for case in cases:
                assert await error_code(client, tool, **{"expression": subject, **case}) == code, (tool, case)
    failed = await client.call_tool("object_summarize", {"expression": "customer.Address.Street"})
    assert "Failed to evaluate expression 'customer.Address.Street'" in error_json(failed)["error"]["message"]
    assert await error_code(client, "collection_analyze", expression="customer.Address") == "VARIABLE_UNAVAILABLE"
    # every refusal left the session answering
    assert (await call_ok(client, "collection_analyze", expression="ints"))["summary"]["count"] == 10
    await call_ok(client, "debug_disconnect")


@with_client
async def test_step_into_a_call_and_out_again(client: Client) -> None:
    await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("add"))
    await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")))
    stop = await call_ok(client, "debug_wait", timeout_ms=20000)
    assert stop["location"]["function"] == "Process" and stop["location"]["line"] == story_line("add")

    inside = await call_ok(client, "debug_step", mode="into")
    assert inside["state"] == "paused" and inside["stop_reason"] == "step", inside
    assert inside["location"]["function"] == "Price"
    assert story_line("price") - 2 <= inside["location"]["line"] < story_line("price")
    frames = (await call_ok(client, "stacktrace_get", max_frames=2))["frames"]
    assert [f["function"] for f in frames] == ["Price", "Process"]

    back = await call_ok(client, "debug_step", mode="out")
    assert back["stop_reason"] == "step" and back["location"]["function"] == "Process", back
    assert back["location"]["line"] == story_line("add")
    assert await error_code(client, "debug_step", mode="sideways") == "INVALID_PARAMETER"
    assert await error_code(client, "debug_step", thread_id=987_654_321) == "UNKNOWN_THREAD"
    await call_ok(client, "debug_disconnect")


@with_client
async def test_attach_pause_and_detach_leave_the_process_running(client: Client, loop: tuple[int, Path]) -> None:
    pid, counter = loop
    attached = await call_ok(client, "debug_attach", pid=pid)
    assert attached["mode"] == "attach" and attached["pid"] == pid and attached["state"] == "running"
    assert counter_moves(counter)
    paused = await call_ok(client, "debug_pause")
    assert paused["state"] == "paused" and paused["stop_reason"] == "pause", paused
    assert not counter_moves(counter)
    done = await call_ok(client, "debug_disconnect")
    assert done["state"] == "not_started" and "detached" in done["message"]
    assert counter_moves(counter), "the debuggee stayed stopped after the detach"


@with_client
async def test_debug_wait_returns_at_its_bound_while_the_process_runs(
        client: Client, loop: tuple[int, Path]) -> None:
    pid, _ = loop
    await call_ok(client, "debug_attach", pid=pid)
    started = time.monotonic()
    waited = await call_ok(client, "debug_wait", timeout_ms=400)
    elapsed = time.monotonic() - started
    assert waited["state"] == "running" and waited["timed_out"] is True, waited
    assert 0.35 <= elapsed < 3.0, elapsed
    assert await error_code(client, "debug_wait", timeout_ms=600_001) == "INVALID_PARAMETER"
    assert await error_code(client, "debug_continue", timeout_ms="soon") == "INVALID_PARAMETER"
    await call_ok(client, "debug_disconnect")
