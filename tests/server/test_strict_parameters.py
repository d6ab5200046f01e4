"""Strict tool parameters and the protocol's error split, for every tool the server lists
(tools added later are covered by the enumeration): each input schema says
additionalProperties: false, an unknown argument answers INVALID_PARAMETER naming it and
the closest known parameter, and nothing else happens; an unknown prompt and a missing
prompt argument are JSON-RPC -32602 errors. Through the in-memory client and through a
real `pyinspect serve` over stdio."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_calls import call_ok
from mcp_types import INVALID_PARAMS

import pyinspect
from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio


def misspelt(tool: dict[str, Any]) -> tuple[str, str | None]:
    """(an argument the tool does not take, the parameter a hint should name): a known
    parameter with a letter dropped, else a made-up name."""
    known = list(tool["inputSchema"].get("properties", {}))
    longest = max(known, key=len, default=None)
    if longest is None or len(longest) < 5:
        return "bogus_argument", None
    return longest[:-1], longest


async def refuse_unknown_arguments(client: Client) -> int:
    listed = (await client.list_tools()).tools
    assert len(listed) > 30
    for tool in listed:
        schema = tool.model_dump(by_alias=True)
        assert tool.input_schema.get("additionalProperties") is False, tool.name
        wrong, closest = misspelt(schema)
        result = await client.call_tool(tool.name, {wrong: 1})
        assert result.is_error and result.structured_content is None, (tool.name, result)
        answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
        code, message = (answer["code"], answer["message"]) if answer.get("error") is True else (
            answer["error"]["code"], answer["error"]["message"])
        assert code == "INVALID_PARAMETER", (tool.name, answer)
        assert f"unknown parameter {wrong!r}" in message, (tool.name, message)
        if closest is not None:
            assert f"did you mean {closest!r}?" in message, (tool.name, message)
    # the refused calls did nothing: no session was started, no breakpoint set
    assert (await call_ok(client, "debug_state"))["state"] == "not_started"
    assert (await call_ok(client, "breakpoint_list"))["breakpoints"] == []
    return len(listed)


async def test_every_tool_refuses_an_unknown_argument_with_a_hint_in_memory() -> None:
    async with Client(create_server()) as client:
        await refuse_unknown_arguments(client)
        result = await client.call_tool("heap_retained", {"address": "0x10"})
        assert "did you mean 'addresses'?" in result.content[0].text  # type: ignore[union-attr]


async def test_every_tool_refuses_an_unknown_argument_over_stdio() -> None:
    server = StdioServerParameters(command=sys.executable, args=["-m", "pyinspect", "serve"])
    async with Client(server) as client:
        await refuse_unknown_arguments(client)
        assert client.server_info is not None and client.server_info.version == pyinspect.__version__


async def test_an_unknown_prompt_and_a_missing_prompt_argument_are_protocol_errors() -> None:
    mcp = create_server()

    @mcp.prompt(name="needs_pid")
    def needs_pid(pid: str) -> str:
        return f"look at {pid}"

    async with Client(mcp) as client:
        with pytest.raises(MCPError) as unknown:
            await client.get_prompt("find_memory_leek")
        assert unknown.value.error.code == INVALID_PARAMS
        assert "did you mean 'find_memory_leak'?" in unknown.value.error.message, unknown.value.error
        with pytest.raises(MCPError) as missing:
            await client.get_prompt("needs_pid", {})
        assert missing.value.error.code == INVALID_PARAMS and "pid" in missing.value.error.message
        assert "look at 42" in str(await client.get_prompt("needs_pid", {"pid": "42"}))
        assert "heap_attach" in str(await client.get_prompt("find_memory_leak", {}))
