"""Every answer is coded: an unknown tool is the protocol's -32602, a failure inside the
SDK's call path and a timeout come back in the error envelope with a code, the traceback of an internal error
goes to the log (stderr), never into the answer, and the server keeps serving."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_calls import call_ok
from mcp_types import INVALID_PARAMS

from pyinspect.server import create_server

pytestmark = pytest.mark.asyncio


async def raw_error(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """An error answer: the envelope as JSON text, no structured content beside it."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result
    assert result.structured_content is None, result
    answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert isinstance(answer, dict), result.content
    return answer


async def test_an_unknown_tool_is_a_protocol_error_naming_the_tools() -> None:
    """The 2025-11-25 spec lists an unknown tool among the protocol errors: -32602."""
    async with Client(create_server()) as client:
        for name in ("no_such_tool", "x" * 5000, "debug_launch\u202e", ""):
            with pytest.raises(MCPError) as refused:
                await client.call_tool(name, {"a": 1})
            assert refused.value.error.code == INVALID_PARAMS, refused.value.error
            message = refused.value.error.message
            assert message.startswith("Unknown tool") and "debug_launch" in message and len(message) < 1000, message
        with pytest.raises(MCPError, match="did you mean 'heap_stats'"):
            await client.call_tool("heap_stat", {})
        assert (await call_ok(client, "debug_state"))["state"] == "not_started"


async def test_an_internal_error_is_coded_and_its_traceback_only_logged(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def explode(self: MCPServer, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        if name == "debug_state":
            raise RuntimeError("secret internal detail")
        return await original(self, name, arguments, context)

    original = MCPServer.call_tool
    monkeypatch.setattr(MCPServer, "call_tool", explode)
    async with Client(create_server()) as client:
        with caplog.at_level(logging.ERROR, logger="pyinspect.server.app"):
            answer = await raw_error(client, "debug_state", {})
        assert answer["error"]["code"] == "INTERNAL_ERROR", answer
        assert "secret internal detail" not in json.dumps(answer) and "Traceback" not in json.dumps(answer)
        logged = [r for r in caplog.records if r.exc_info]
        assert logged and "secret internal detail" in str(logged[0].exc_info[1])  # type: ignore[index]
        assert (await call_ok(client, "breakpoint_list"))["breakpoints"] == []


async def test_a_timeout_is_coded_in_the_tools_own_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    async def stall(self: MCPServer, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        raise TimeoutError("waited too long")

    monkeypatch.setattr(MCPServer, "call_tool", stall)
    async with Client(create_server()) as client:
        answer = await raw_error(client, "debug_state", {})
        assert answer["error"]["code"] == "TIMEOUT" and "waited too long" in answer["error"]["message"]
        evaluated = await raw_error(client, "evaluate", {"expression": "1"})
        assert evaluated["error"] is True and evaluated["code"] == "TIMEOUT", evaluated
