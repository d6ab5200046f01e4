"""What a tool call is, before any state is touched: which client sent it (its MCP session, or
none: a 2026-07-28 request over HTTP) and what kind of handle its tool acts on or opens."""

from __future__ import annotations

from pyinspect.server.handles import STATELESS, Kind

__all__ = ["GET", "NEW_HEAP", "OPENS", "client_of_request", "kind_of", "opens", "owner_of_request"]

OPENS: dict[str, Kind] = {
    "debug_launch": "debug session", "debug_attach": "debug session", "breakpoint_set": "debug session",
    "breakpoint_set_exception": "debug session", "heap_attach": "heap", "dump_open": "heap", "dump_create": "heap",
    "trace_start": "recording",
}
"""The tools that, called without a handle in a 2026-07-28 request, open a new Session; on
every transport their answers carry the handle they acted on."""
NEW_HEAP = frozenset({"heap_attach", "dump_open"})
"""The tools that, called without a handle by a handshake-era client, open a new heap beside
its others (a debug session's tools act on its one current debug session instead)."""
GET = {"debug session": "debug_launch or debug_attach (or breakpoint_set before them)",
       "heap": "heap_attach or dump_open, or a paused debug session's handle",
       "recording": "trace_start"}
"""Where a handle of each kind comes from (HANDLE_REQUIRED's message)."""


def client_of_request(request: object) -> tuple[str | None, bool]:
    """The MCP session id of the HTTP request behind a call (None on stdio and in memory), and
    whether the request is stateless: over HTTP with no MCP session (2026-07-28)."""
    headers = getattr(request, "headers", None)
    if headers is None:
        return None, False
    client_id = headers.get("mcp-session-id")
    return client_id, client_id is None


def owner_of_request(request: object) -> str | None:
    """Who holds what a request opens: its MCP session, or (2026-07-28 over HTTP) STATELESS."""
    client_id, stateless = client_of_request(request)
    return STATELESS if stateless else client_id


def opens(tool: str) -> Kind | None:
    return OPENS.get(tool)


def kind_of(tool: str) -> Kind:
    """The kind of handle a tool acts on (for the message that asks for one)."""
    if tool in OPENS:
        return OPENS[tool]
    if tool.startswith(("heap_", "dump_")) or tool == "diagnose":
        return "heap"
    return "recording" if tool.startswith("trace_") else "debug session"
