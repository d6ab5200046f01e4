"""The MCP server: `create_server` builds it, `run_server` serves it on stdio or on
streamable HTTP bound to 127.0.0.1.

Tools live in the modules of ``_TOOL_MODULES``; each exposes
``register(mcp, get_session)``. One Session per server; the lifespan ends it (so a
launched debuggee is terminated and an attached one detached) when the server stops.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult
from pydantic import ValidationError

from pyinspect.errors import InvalidParameterError
from pyinspect.server.errors import error_result
from pyinspect.server.tooling import ERROR_SHAPES
from pyinspect.session import Session

__all__ = ["PyInspectServer", "create_server", "run_server"]

_TOOL_MODULES = (
    "pyinspect.server.session_tools",
    "pyinspect.server.inspection_tools",
    "pyinspect.server.memory_tools",
    "pyinspect.server.process_tools",
)

_INSTRUCTIONS = """pyinspect debugs .NET processes. Start with breakpoint_set (optional),
then debug_launch or debug_attach; debug_wait until the process is paused; read it with
threads_list, stacktrace_get, variables_get and evaluate; move on with debug_step or
debug_continue; end with debug_disconnect. Errors come back as
{"success": false, "error": {"code", "message"}}."""


class PyInspectServer(MCPServer[Any]):
    """MCPServer whose argument validation failures answer INVALID_PARAMETER in the
    tool's own error shape, instead of free text."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if name not in ERROR_SHAPES or not isinstance(cause, ValidationError):
                raise
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                                 for e in cause.errors())
            shape = ERROR_SHAPES[name]
            result: CallToolResult = error_result(shape(InvalidParameterError(f"bad parameters: {problems}")))
            return result


def create_server(session: Session | None = None, adapter: str = "pyinspect") -> MCPServer[Any]:
    owned = session or Session(adapter=adapter)

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {"session": owned}
        finally:
            owned.close()

    mcp = PyInspectServer("pyinspect", instructions=_INSTRUCTIONS, lifespan=lifespan)
    get_session: Callable[[], Session] = lambda: owned
    for module in _TOOL_MODULES:
        importlib.import_module(module).register(mcp, get_session)
    return mcp


def run_server(http: bool = False, port: int = 8765, adapter: str = "pyinspect") -> None:
    server = create_server(adapter=adapter)
    if http:
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run("stdio")

