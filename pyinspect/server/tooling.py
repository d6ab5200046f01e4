"""Registering a plain typed function as an MCP tool with pyinspect's answer rules:
the pydantic model is the output schema, success answers leave out absent fields,
every PyInspectError (and any bug) becomes the contract's error answer."""

from __future__ import annotations

import functools
import inspect
import json
import logging
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from pyinspect.errors import PyInspectError
from pyinspect.server.errors import answer_result, error_answer, error_result, unexpected_error

__all__ = ["ErrorShape", "add_tool", "wire_result"]

F = TypeVar("F", bound=Callable[..., BaseModel])
ErrorShape = Callable[[PyInspectError], dict[str, Any]]
log = logging.getLogger(__name__)


def wire_result(answer: Any) -> CallToolResult:
    """A success answer with the explicit nulls its contract shape asks for (the model's wire())."""
    data = answer.wire()
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(data))], structured_content=data)


def add_tool(mcp: MCPServer, fn: Callable[..., Any], output: type[BaseModel], *, read_only: bool,
             error_shape: ErrorShape = error_answer, title: str | None = None, destructive: bool = False,
             result: Callable[[Any], CallToolResult] = answer_result) -> None:
    """Register fn (plain or async: async tools take the request's Context) under its own
    name; `result` turns its answer into the tool result (answer_result leaves out absent
    fields, wire_result keeps a contract's nulls)."""
    def failed(exc: Exception) -> CallToolResult:
        if isinstance(exc, PyInspectError):
            return error_result(error_shape(exc))
        log.exception("tool %s failed", fn.__name__)
        return error_result(error_shape(unexpected_error(exc)))

    run_tool: Any
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def run_async(*args: Any, **kwargs: Any) -> CallToolResult:
            try:
                return result(await fn(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 - every failure answers the envelope (failed logs bugs)
                return failed(exc)
        run_tool = run_async
    else:
        @functools.wraps(fn)
        def run_sync(*args: Any, **kwargs: Any) -> CallToolResult:
            try:
                return result(fn(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 - every failure answers the envelope (failed logs bugs)
                return failed(exc)
        run_tool = run_sync

    signature = inspect.signature(fn, eval_str=True)
    run_tool.__signature__ = signature.replace(
        return_annotation=Annotated[CallToolResult, output])
    run_tool.error_shape = error_shape  # read by the server for failures the SDK raises (bad arguments)
    mcp.add_tool(run_tool, name=fn.__name__, title=title, description=inspect.getdoc(fn),
                 annotations=ToolAnnotations(read_only_hint=read_only, destructive_hint=destructive,
                                             idempotent_hint=read_only, open_world_hint=False))
