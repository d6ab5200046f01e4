"""pyinspect's MCP server (`pyinspect serve`): session tools, inspection tools, memory tools."""

from __future__ import annotations

from pyinspect.server.app import create_server, run_server

__all__ = ["create_server", "run_server"]
