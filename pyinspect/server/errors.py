"""Tool error answers: one place that turns a PyInspectError into what a contract shows.

Default shape ``{"success": false, "error": {"code", "message"}}``; the evaluate contract
has its own, ``{"error": true, "message", "type", "code"}``. Codes are spelled one way
everywhere: the ErrorCode values (UPPER_SNAKE).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from pyinspect.errors import ErrorCode, EvaluationError, PyInspectError

__all__ = ["answer_result", "error_answer", "error_result", "evaluate_error_answer"]


def error_answer(exc: PyInspectError) -> dict[str, Any]:
    return {"success": False, "error": {"code": str(exc.code), "message": exc.message}}


def evaluate_error_answer(exc: PyInspectError) -> dict[str, Any]:
    """The evaluate contract's error: `type` is the .NET exception when there was one,
    else our error code (NOT_PAUSED, UNKNOWN_FRAME...), repeated as `code`."""
    exception_type = exc.exception_type if isinstance(exc, EvaluationError) else None
    return {"error": True, "message": exc.message, "type": exception_type or str(exc.code),
            "code": str(exc.code)}


def unexpected_error(exc: BaseException) -> PyInspectError:
    """A bug must still be an answer the model can read, never a dead server."""
    return PyInspectError(f"internal error: {type(exc).__name__}: {exc}", code=ErrorCode.ADAPTER_ERROR)


def error_result(answer: dict[str, Any]) -> CallToolResult:
    """An error answer: the contract's envelope as JSON text, and no structured content.

    The MCP spec lets a tool error carry no structuredContent; clients such as the
    TypeScript SDK validate any structuredContent they get (errors too) against the tool's
    output schema, which describes the success answer, so an envelope there would turn
    every error into an unreadable schema failure."""
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(answer))], is_error=True)


def answer_result(answer: BaseModel) -> CallToolResult:
    data = answer.model_dump(mode="json", by_alias=True, exclude_none=True)
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(data))], structured_content=data)
