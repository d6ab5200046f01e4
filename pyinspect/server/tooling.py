"""Registering a plain typed function as an MCP tool with pyinspect's answer rules:
the pydantic model is the output schema, success answers leave out absent fields,
every PyInspectError (and any bug) becomes the contract's error answer."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel

from pyinspect.errors import PyInspectError
from pyinspect.server.errors import answer_result, error_answer, error_result, unexpected_error

__all__ = ["ErrorShape", "add_tool"]

F = TypeVar("F", bound=Callable[..., BaseModel])
ErrorShape = Callable[[PyInspectError], dict[str, Any]]
log = logging.getLogger(__name__)
ERROR_SHAPES: dict[str, ErrorShape] = {}
"""Tool name -> its error shape, for argument validation failures raised by the SDK."""


def add_tool(mcp: MCPServer, fn: Callable[..., BaseModel], output: type[BaseModel], *, read_only: bool,
             error_shape: ErrorShape = error_answer, title: str | None = None, destructive: bool = False) -> None:
    @functools.wraps(fn)
    def run_tool(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            return answer_result(fn(*args, **kwargs))
        except PyInspectError as exc:
            return error_result(error_shape(exc))
        except Exception as exc:
            log.exception("tool %s failed", fn.__name__)
            return error_result(error_shape(unexpected_error(exc)))

    signature = inspect.signature(fn, eval_str=True)
    run_tool.__signature__ = signature.replace(  # type: ignore[attr-defined]
        return_annotation=Annotated[CallToolResult, output])
    ERROR_SHAPES[fn.__name__] = error_shape
    mcp.add_tool(run_tool, name=fn.__name__, title=title, description=inspect.getdoc(fn),
                 annotations=ToolAnnotations(read_only_hint=read_only, destructive_hint=destructive,
                                             idempotent_hint=read_only, open_world_hint=False))
