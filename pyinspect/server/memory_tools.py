"""Memory tools (object_inspect, collection_analyze, ...): placeholder until the memory
tools land; registers nothing."""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver import MCPServer

from pyinspect.session import Session

__all__ = ["register"]


def register(mcp: MCPServer, get_session: Callable[[], Session]) -> None:
    """No memory tools yet."""
