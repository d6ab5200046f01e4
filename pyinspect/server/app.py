"""The MCP server: `create_server` builds it, `run_server` serves it on stdio or on
streamable HTTP bound to 127.0.0.1.

Tools live in the modules of ``_TOOL_MODULES``; each exposes ``register(mcp, clients)``.
Each client (the one on stdio, each MCP session over HTTP) has its own debug Session
and heap workspace (pyinspect.server.clients); the lifespan ends them all (so a
launched debuggee is terminated and an attached one detached) when the server stops.

Errors follow the 2025-11-25 split: what the protocol refuses (an unknown tool or
prompt, a missing prompt argument) is a JSON-RPC error -32602; what a tool refuses (bad
or unknown arguments, a state that forbids the call) is a tool result with isError and
one of our codes, which a model can read and correct.
"""

from __future__ import annotations

import difflib
import importlib
import io
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent
from pydantic import ValidationError

from pyinspect import __version__
from pyinspect.errors import ErrorCode, InvalidParameterError, PyInspectError
from pyinspect.server.call_kinds import OPENS, client_of_request
from pyinspect.server.clients import ClientSessions
from pyinspect.server.errors import error_answer, error_result
from pyinspect.server.http_sessions import IDLE_TIMEOUT
from pyinspect.server.parameters import (
    HANDLE,
    HANDLE_ANSWER,
    HANDLE_ONLY,
    HANDLE_PARAMETER,
    HANDLELESS,
)
from pyinspect.server.prompts import HEAP_INSTRUCTIONS, TRIAGE_INSTRUCTIONS
from pyinspect.server.stdio_wire import claim_stdio
from pyinspect.server.tasks import Tasks

__all__ = ["PyInspectServer", "create_server", "run_server"]

log = logging.getLogger(__name__)

_TOOL_MODULES = (
    "pyinspect.server.tools.session",
    "pyinspect.server.tools.inspection",
    "pyinspect.server.tools.memory",
    "pyinspect.server.tools.process",
    "pyinspect.server.tools.heap",
    "pyinspect.server.tools.trace",
)

_HANDLES = """Handles: the opening tools (debug_launch, debug_attach, breakpoint_set, heap_attach, dump_open,
dump_create, trace_start) answer a `handle` naming what they opened: keep the handle you were
given and pass it as `handle` to later calls on that debug session, heap or recording. Over
HTTP with protocol 2026-07-28 it is required (an opening tool called without one opens
something new; other tools answer HANDLE_REQUIRED); on stdio and in an MCP session a call
without one acts on your current debug session and the heap you opened last, and the heaps
opened before stay open under their handles. Hold several at once: heap_diff compares two
heaps' snapshots with before_handle. handle_close {handle} ends one when you are done (a
launched program terminated, an attached one detached, a heap closed); idle ones expire
(HANDLE_CLOSED says why). Long heap walks, dump_create and trace_stop may answer an MCP task
if your client supports them: poll tasks/get."""

_INSTRUCTIONS = """pyinspect debugs .NET processes. Start with breakpoint_set (optional),
then debug_launch or debug_attach; debug_wait until the process is paused; read it with
threads_list, stacktrace_get, variables_get and evaluate; move on with debug_step or
debug_continue; end with debug_disconnect. Errors come back as
{"success": false, "error": {"code", "message"}}.

""" + HEAP_INSTRUCTIONS + "\n\n" + TRIAGE_INSTRUCTIONS + "\n\n" + _HANDLES


_CACHE_HINTS: dict[CacheableMethod, CacheHint] = {
    "tools/list": CacheHint(ttl_ms=3_600_000, scope="public"),
    "prompts/list": CacheHint(ttl_ms=3_600_000, scope="public"),
}
"""The tools and prompts never change while a server runs: a client may keep the lists an hour."""



class PyInspectServer(MCPServer[Any]):
    """MCPServer whose every tool answer is coded: unknown or invalid arguments answer
    INVALID_PARAMETER in the tool's own error shape (an unknown one named, with the
    closest known parameter), timeouts TIMEOUT and anything unexpected INTERNAL_ERROR
    (its traceback goes to stderr, never into the answer), instead of the SDK's free
    text; an unknown tool or prompt is a protocol error (-32602)."""

    def __init__(self, *args: Any, clients: ClientSessions, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clients = clients

    def add_tool(self, fn: Any, name: str | None = None, *args: Any, **kwargs: Any) -> None:
        """Every tool's input schema says additionalProperties: false (call_tool refuses
        what it does not name)."""
        super().add_tool(fn, name, *args, **kwargs)
        tool = self._tool_manager.get_tool(name or fn.__name__)
        if tool is not None:
            tool.parameters["additionalProperties"] = False
            if tool.name not in HANDLELESS:
                tool.parameters.setdefault("properties", {})[HANDLE] = HANDLE_PARAMETER
                if tool.name in HANDLE_ONLY:
                    tool.parameters["required"] = [HANDLE]
                output = tool.output_schema
                if output is not None:
                    output.setdefault("properties", {})[HANDLE] = HANDLE_ANSWER

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            known = ", ".join(sorted(tool.name for tool in self._tool_manager.list_tools()))
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name[:100]!r}{_hint(name, self._tool_names())}"
                                                        f"; the tools are: {known}")
        unknown = _unknown_arguments(arguments, tool.parameters)
        if unknown is not None:
            return self._coded(name, unknown)
        arguments = dict(arguments)
        handle = arguments.pop(HANDLE, None)
        if handle is not None and (not isinstance(handle, str) or not 0 < len(handle) <= 100):
            return self._coded(name, InvalidParameterError("handle must be the string an opening tool answered"))
        try:
            client_id, stateless = _client_of(context)
            with self.clients.serving(client_id, stateless=stateless, tool=name, handle=handle) as call:
                result: Any = None
                try:
                    result = await super().call_tool(name, arguments, context)
                finally:
                    failed = not isinstance(result, CallToolResult) or bool(result.is_error)
                    with anyio.CancelScope(shield=True):  # a cancelled call still lets its handle go
                        await anyio.to_thread.run_sync(self.clients.release, call, failed)
            answers_handle = stateless or name in OPENS or name in HANDLE_ONLY
            return _with_handle(result, call.used if answers_handle else None)
        except MCPError:
            raise
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                return self._internal_error(name, exc.__cause__ or exc)
            return self._tool_error(name, exc)
        except TimeoutError as exc:
            return self._coded(name, PyInspectError(f"{name[:100]} timed out: {exc}", code=ErrorCode.TIMEOUT))
        except Exception as exc:  # noqa: BLE001 - the last line: a bug becomes a coded answer
            return self._internal_error(name, exc)

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Any = None) -> Any:
        """An unknown prompt or a missing required argument is the client's protocol error (-32602)."""
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            names = [p.name for p in self._prompt_manager.list_prompts()]
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name[:100]!r}{_hint(name, names)}; the "
                                                        f"prompts are: {', '.join(sorted(names))}")
        missing = sorted(a.name for a in prompt.arguments or [] if a.required and a.name not in (arguments or {}))
        if missing:
            raise MCPError(code=INVALID_PARAMS, message=f"Missing required arguments of prompt {name!r}: "
                                                        f"{', '.join(missing)}")
        return await super().get_prompt(name, arguments, context)

    def _coded(self, name: str, error: PyInspectError) -> CallToolResult:
        """The error in the tool's own shape (evaluate's differs: pyinspect.server.tooling
        keeps it on the tool's function), else the common envelope."""
        tool = self._tool_manager.get_tool(name)
        shape = getattr(tool.fn, "error_shape", error_answer) if tool is not None else error_answer
        result: CallToolResult = error_result(shape(error))
        return result

    def _tool_names(self) -> list[str]:
        return [tool.name for tool in self._tool_manager.list_tools()]

    def _tool_error(self, name: str, exc: ToolError) -> CallToolResult:
        cause = exc.__cause__
        if isinstance(cause, ValidationError):
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                                 for e in cause.errors())
            return self._coded(name, InvalidParameterError(f"bad parameters: {problems}"))
        return self._coded(name, InvalidParameterError(str(exc)))

    async def run_on_wire(self) -> None:
        """Serve the stdio wire claimed as the process began (pyinspect.server.stdio_wire),
        as ``run_stdio_async`` serves stdin and stdout."""
        wire_in, wire_out = claim_stdio()
        stdin = anyio.wrap_file(io.TextIOWrapper(wire_in, encoding="utf-8", errors="replace"))
        stdout = anyio.wrap_file(io.TextIOWrapper(wire_out, encoding="utf-8"))
        async with stdio_server(stdin=stdin, stdout=stdout) as (read_stream, write_stream):
            lowlevel = self._lowlevel_server  # what run_stdio_async runs; the SDK has no public name for it
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())

    def _internal_error(self, name: str, exc: BaseException) -> CallToolResult:
        log.error("tool %s failed unexpectedly", name[:100], exc_info=exc)
        return self._coded(name, PyInspectError(f"internal error in {name[:100]}: {type(exc).__name__} (details in the "
                                           "server's log)", code=ErrorCode.INTERNAL_ERROR))


def _client_of(context: Any) -> tuple[str | None, bool]:
    """The MCP session id of the HTTP request behind this call, and whether it is stateless
    (pyinspect.server.clients.client_of_request)."""
    return client_of_request(getattr(getattr(context, "_request_context", None), "request", None))


def _with_handle(result: Any, handle: str | None) -> Any:
    """A success answer that carries the handle the call acted on (or minted)."""
    if handle is None or not isinstance(result, CallToolResult) or result.is_error:
        return result
    data = result.structured_content
    if not isinstance(data, dict):
        return result
    data = {**data, HANDLE: handle}
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(data))], structured_content=data)


def _hint(given: str, known: list[str]) -> str:
    """ " (did you mean 'x'?)" for the closest known name, else nothing."""
    close = difflib.get_close_matches(given, known, n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unknown_arguments(arguments: dict[str, Any], schema: dict[str, Any]) -> InvalidParameterError | None:
    """The refusal of arguments the tool does not take (its schema says
    additionalProperties: false), naming each and the closest parameter it has."""
    known = list(schema.get("properties", {}))
    unknown = [name for name in arguments if name not in known]
    if not unknown:
        return None
    parts = [f"unknown parameter {name[:100]!r}{_hint(name, known)}" for name in unknown]
    takes = ", ".join(known) if known else "no parameters"
    return InvalidParameterError(f"{'; '.join(parts)}; this tool takes: {takes}")



def create_server(adapter: str = "pyinspect", idle_timeout: float = IDLE_TIMEOUT) -> PyInspectServer:
    """The server; handles idle for ``idle_timeout`` seconds are closed (pyinspect.server.clients
    says which ones), and long calls may become MCP tasks (pyinspect.server.tasks)."""
    clients = ClientSessions(adapter)
    tasks = Tasks()

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(_expire_handles, clients, idle_timeout)
                tasks.task_group = group
                try:
                    yield {"clients": clients}
                finally:
                    tasks.task_group = None
                    group.cancel_scope.cancel()
        finally:
            clients.end_all()  # at once, even when cancelled: no debuggee is left stopped

    mcp = PyInspectServer("pyinspect", version=__version__, instructions=_INSTRUCTIONS, lifespan=lifespan,
                          clients=clients, cache_hints=_CACHE_HINTS, extensions=[tasks])
    for module in _TOOL_MODULES:
        importlib.import_module(module).register(mcp, clients)
    return mcp


def run_server(http: bool = False, port: int = 8765, adapter: str = "pyinspect", token_file: str | None = None,
               idle_timeout: float | None = None) -> None:
    """stdio, or streamable HTTP behind pyinspect.server.http_security (token, Host, Origin,
    body limit) with the session rules of pyinspect.server.http_sessions; the token is
    read before anything listens. On stdio the wire is the one `pyinspect serve` claimed
    as the process began (else claimed now)."""
    if not http:
        claim_stdio()
        anyio.run(create_server(adapter, idle_timeout or IDLE_TIMEOUT).run_on_wire)
        return
    from pyinspect.server import http_security

    token, generated = http_security.load_token(token_file)
    server = create_server(adapter, idle_timeout or IDLE_TIMEOUT)
    anyio.run(_serve_http, server, port, token, generated, idle_timeout or IDLE_TIMEOUT)


async def _serve_http(server: PyInspectServer, port: int, token: str, generated: bool, idle_timeout: float) -> None:
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Route

    from pyinspect.server import http_security as sec
    from pyinspect.server.http_sessions import EvictingSessionManager

    async def end_client(session_id: str) -> None:
        await anyio.to_thread.run_sync(server.clients.end, session_id)

    checks = TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=sec.loopback_hosts(port),
                                       allowed_origins=sec.loopback_origins(port))
    manager = EvictingSessionManager(server._lowlevel_server, end_client, idle_timeout=idle_timeout,
                                     security_settings=checks, max_request_body_size=sec.MAX_BODY_BYTES)
    app = Starlette(routes=[Route("/mcp", endpoint=StreamableHTTPASGIApp(manager))],
                    lifespan=lambda _: manager.run())
    # keep-alive longer than any client's (undici: 4 s): a server that closes an idle
    # connection first races the client's next request on it ("other side closed")
    config = uvicorn.Config(sec.BearerGuard(app, token, port), host="127.0.0.1", port=port, log_level="warning",
                            timeout_keep_alive=75)
    if generated:
        sec.announce_token(token, port)
    await uvicorn.Server(config).serve()


async def _expire_handles(clients: ClientSessions, idle_timeout: float) -> None:
    """Close the handles idle for the idle timeout (what they held ends with them)."""
    while True:
        await anyio.sleep(min(30.0, max(0.5, idle_timeout / 4)))
        try:
            await anyio.to_thread.run_sync(clients.expire_idle, idle_timeout)
        except Exception:
            log.exception("closing idle handles failed")
