"""The MCP server: `create_server` builds it, `run_server` serves it on stdio or on
streamable HTTP bound to 127.0.0.1.

Tools live in the modules of ``_TOOL_MODULES``; each exposes
``register(mcp, get_session)``. One Session per server; the lifespan ends it (so a
launched debuggee is terminated and an attached one detached) when the server stops.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, cast

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult
from pydantic import ValidationError

from pyinspect.errors import ErrorCode, InvalidParameterError, PyInspectError
from pyinspect.server.errors import error_answer, error_result
from pyinspect.server.prompts import HEAP_INSTRUCTIONS, TRIAGE_INSTRUCTIONS
from pyinspect.server.stdio_front import StdioFront
from pyinspect.server.tooling import ERROR_SHAPES
from pyinspect.session.debug_session import Session

__all__ = ["PyInspectServer", "create_server", "run_server"]

log = logging.getLogger(__name__)

_TOOL_MODULES = (
    "pyinspect.server.tools.session",
    "pyinspect.server.tools.inspection",
    "pyinspect.server.tools.memory",
    "pyinspect.server.tools.process",
    "pyinspect.server.tools.heap",
)

_INSTRUCTIONS = """pyinspect debugs .NET processes. Start with breakpoint_set (optional),
then debug_launch or debug_attach; debug_wait until the process is paused; read it with
threads_list, stacktrace_get, variables_get and evaluate; move on with debug_step or
debug_continue; end with debug_disconnect. Errors come back as
{"success": false, "error": {"code", "message"}}.

""" + HEAP_INSTRUCTIONS + "\n\n" + TRIAGE_INSTRUCTIONS


class PyInspectServer(MCPServer[Any]):
    """MCPServer whose every tool answer is coded: argument validation failures answer
    INVALID_PARAMETER in the tool's own error shape, unknown tools UNKNOWN_TOOL, timeouts
    TIMEOUT and anything unexpected INTERNAL_ERROR (its traceback goes to stderr, never
    into the answer), instead of the SDK's free text."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except MCPError:
            raise
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                return self._internal_error(name, exc.__cause__ or exc)
            return self._tool_error(name, exc)
        except TimeoutError as exc:
            return _coded(name, PyInspectError(f"{name[:100]} timed out: {exc}", code=ErrorCode.TIMEOUT))
        except Exception as exc:  # noqa: BLE001 - the last line: a bug becomes a coded answer
            return self._internal_error(name, exc)

    def _tool_error(self, name: str, exc: ToolError) -> CallToolResult:
        cause = exc.__cause__
        if self._tool_manager.get_tool(name) is None:
            known = ", ".join(sorted(tool.name for tool in self._tool_manager.list_tools()))
            return _coded(name, PyInspectError(f"unknown tool {name[:100]!r}; the tools are: {known}",
                                               code=ErrorCode.UNKNOWN_TOOL))
        if isinstance(cause, ValidationError):
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                                 for e in cause.errors())
            return _coded(name, InvalidParameterError(f"bad parameters: {problems}"))
        return _coded(name, InvalidParameterError(str(exc)))

    async def run_behind_front(self, front: StdioFront) -> None:
        """Serve the stdio wire the front has held (and partly answered) since the
        process began, as ``run_stdio_async`` serves stdin and stdout."""
        async with stdio_server(stdin=cast(Any, _FrontLines(front)), stdout=cast(Any, _FrontWriter(front))) as (
                read_stream, write_stream):
            lowlevel = self._lowlevel_server  # what run_stdio_async runs; the SDK has no public name for it
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())

    @staticmethod
    def _internal_error(name: str, exc: BaseException) -> CallToolResult:
        log.error("tool %s failed unexpectedly", name[:100], exc_info=exc)
        return _coded(name, PyInspectError(f"internal error in {name[:100]}: {type(exc).__name__} (details in the "
                                           "server's log)", code=ErrorCode.INTERNAL_ERROR))


class _FrontLines:
    """The front's incoming lines as the async line iterator stdio_server reads."""

    def __init__(self, front: StdioFront) -> None:
        loop = asyncio.get_running_loop()
        self._lines: asyncio.Queue[bytes | None] = asyncio.Queue()

        def deliver(line: bytes | None) -> None:  # on the front's reading thread
            loop.call_soon_threadsafe(self._lines.put_nowait, line)

        front.hand_over(deliver)

    def __aiter__(self) -> _FrontLines:
        return self

    async def __anext__(self) -> str:
        line = await self._lines.get()
        if line is None:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _FrontWriter:
    """The front's way out as the async text file stdio_server writes to."""

    def __init__(self, front: StdioFront) -> None:
        self._front = front

    async def write(self, text: str) -> None:
        await anyio.to_thread.run_sync(self._front.write, text)

    async def flush(self) -> None:
        """Each write is flushed by the front."""


def _coded(name: str, error: PyInspectError) -> CallToolResult:
    """The error in the tool's own shape (evaluate's differs), else the common envelope."""
    shape = ERROR_SHAPES.get(name, error_answer)
    result: CallToolResult = error_result(shape(error))
    return result


def create_server(session: Session | None = None, adapter: str = "pyinspect") -> PyInspectServer:
    owned = session or Session(adapter=adapter)
    closers: list[Callable[[], object]] = []  # what a tool module opened beside the session

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {"session": owned}
        finally:
            for close in closers:
                close()
            owned.close()

    mcp = PyInspectServer("pyinspect", instructions=_INSTRUCTIONS, lifespan=lifespan)
    get_session: Callable[[], Session] = lambda: owned
    for module in _TOOL_MODULES:
        closer = importlib.import_module(module).register(mcp, get_session)
        if callable(closer):
            closers.append(closer)
    return mcp


def run_server(http: bool = False, port: int = 8765, adapter: str = "pyinspect", token_file: str | None = None) -> None:
    """stdio, or streamable HTTP behind pyinspect.server.http_security (token, Host, Origin,
    body and session limits); the token is read before anything listens. On stdio the
    wire is the front `pyinspect serve` claimed as the process began (else claimed now)."""
    if not http:
        server = create_server(adapter=adapter)
        anyio.run(server.run_behind_front, StdioFront.claim_stdio())
        return
    from pyinspect.server import http_security

    token, generated = http_security.load_token(token_file)
    server = create_server(adapter=adapter)
    anyio.run(_serve_http, server, port, token, generated)


async def _serve_http(server: MCPServer[Any], port: int, token: str, generated: bool) -> None:
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from pyinspect.server import http_security as sec

    checks = TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=sec.loopback_hosts(port),
                                       allowed_origins=sec.loopback_origins(port))
    app = server.streamable_http_app(max_request_body_size=sec.MAX_BODY_BYTES, max_sessions=sec.MAX_SESSIONS,
                                     transport_security=checks, host="127.0.0.1")
    config = uvicorn.Config(sec.BearerGuard(app, token, port), host="127.0.0.1", port=port, log_level="warning")
    if generated:
        sec.announce_token(token, port)
    await uvicorn.Server(config).serve()
