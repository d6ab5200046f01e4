"""The server teaches the leak workflow: its instructions name the heap tools in the order
of a leak hunt, and the find_memory_leak prompt walks it step by step, with a recording
(trace_start before exercising, trace_stop after heap_diff) naming the allocating stack."""

from __future__ import annotations

import pytest
from mcp import Client

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio

WORKFLOW = ["heap_snapshot", "heap_diff", "heap_instances", "heap_retention", "heap_retained"]


def _in_order(text: str, names: list[str]) -> bool:
    positions = [text.find(name) for name in names]
    return -1 not in positions and positions == sorted(positions)


async def test_instructions_and_prompt_teach_snapshot_exercise_snapshot_diff_retention() -> None:
    async with Client(create_server()) as client:
        instructions = client.instructions or ""
        assert _in_order(instructions, ["heap_attach", *WORKFLOW]), instructions
        assert _in_order(instructions, ["heap_attach", "diagnose", "heap_stats", "heap_threads"]), instructions
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        assert "find_memory_leak" in prompts
        text = (await client.get_prompt("find_memory_leak", {"pid": "4242", "scenario": "POST /orders 100 times"}))
        body = text.messages[0].content.text  # type: ignore[union-attr]
        assert _in_order(body, ["heap_attach", "diagnose", "heap_stats", *WORKFLOW]), body
        assert _in_order(body, ["heap_snapshot", "trace_start", "heap_diff", "trace_stop", "topStacks",
                                "heap_instances"]), body
        assert '"pid": 4242' in body and "POST /orders 100 times" in body
        tools = {t.name: t.description or "" for t in (await client.list_tools()).tools}
        assert "heap_snapshot" in tools["heap_diff"] and "heap_retention" in tools["heap_diff"]
