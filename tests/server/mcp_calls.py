"""Helpers for the server tests: call a tool through an MCP client and get its
structured answer; the debuggees the stories use."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client
from support.targets import marker_line, read_truth, target_dll, target_source

from pyinspect.server import create_server


def with_client(test: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Run an async test with an in-memory client on a fresh server, opened and closed in
    the test's own task (an anyio task group must not cross tasks, as a fixture would)."""
    extra = list(inspect.signature(test).parameters.values())[1:]

    @functools.wraps(test)
    async def run(**fixtures: Any) -> None:
        async with Client(create_server()) as client:
            await test(client, **fixtures)

    run.__signature__ = inspect.Signature(extra)  # type: ignore[attr-defined]
    return run


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured answer; a success answer must not be flagged as an error."""
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        # errors carry no structured content (it would fail the output schema): the
        # contract's envelope is the JSON text
        assert result.structured_content is None, f"{tool}: an error with structured content"
        answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
    else:
        answer = result.structured_content
    assert isinstance(answer, dict), f"{tool} gave no structured answer: {result.content}"
    failed = answer.get("success") is False or answer.get("error") is True
    assert bool(result.is_error) == failed, f"{tool}: is_error={result.is_error} but {answer}"
    return answer


def error_json(result: Any) -> dict[str, Any]:
    """An error result's envelope: JSON text, with no structured content beside it."""
    assert result.is_error and result.structured_content is None, result
    answer: dict[str, Any] = json.loads(result.content[0].text)
    return answer


async def call_ok(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    answer = await call(client, tool, **arguments)
    assert answer.get("success", True) is True and "error" not in answer, f"{tool} failed: {answer}"
    return answer


async def error_code(client: Client, tool: str, **arguments: Any) -> str:
    answer = await call(client, tool, **arguments)
    if tool == "evaluate":
        assert answer["error"] is True and answer["message"], answer
        return str(answer["code"])
    assert answer["success"] is False and answer["error"]["message"], answer
    return str(answer["error"]["code"])


def story_source() -> str:
    return str(target_source("AgentStory"))


def story_line(marker: str) -> int:
    return marker_line("AgentStory", marker)


async def stop_at_ready(client: Client, folder: Path) -> dict[str, Any]:
    """Launch MemoryTruth with a breakpoint on `// @bp ready`; its truth once stopped there."""
    source = str(target_source("MemoryTruth"))
    await call_ok(client, "breakpoint_set", file=source, line=marker_line("MemoryTruth", "ready"))
    truth_file = folder / "truth.json"
    await call_ok(client, "debug_launch", program=str(target_dll("MemoryTruth")), args=[str(truth_file)])
    stop = await call_ok(client, "debug_wait", timeout_ms=25000)
    assert stop["state"] == "paused" and stop["stop_reason"] == "breakpoint", stop
    truth: dict[str, Any] = read_truth(truth_file)
    return truth
