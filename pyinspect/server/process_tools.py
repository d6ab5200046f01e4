"""process_list: the machine's .NET processes, so an agent can find the pid for
debug_attach and see beforehand whether pyinspect can debug it and read its heap."""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver import MCPServer

from pyinspect.models.runtimes import ProcessListAnswer
from pyinspect.processes import list_dotnet_processes
from pyinspect.server.tooling import add_tool
from pyinspect.session import Session

__all__ = ["register"]


def register(mcp: MCPServer, get_session: Callable[[], Session]) -> None:
    def process_list() -> ProcessListAnswer:
        """List the .NET processes on this machine: pid, command line, runtime (version,
        folder, self-contained or shared), whether pyinspect can debug it (canDebug) and read
        its heap (canReadHeap), and why not (reason). Use a pid from here for debug_attach."""
        return ProcessListAnswer(processes=list_dotnet_processes())

    add_tool(mcp, process_list, ProcessListAnswer, read_only=True, title="List .NET processes")
