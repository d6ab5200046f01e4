"""Memory over time: trace_start records a process's runtime events (allocations with
their stacks, GCs, counters) until trace_stop answers them. One recording at a time per
client; the end of the client's MCP session (or of the server) stops a running one."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from pyinspect.models.trace import TraceAnswer, TraceStartAnswer
from pyinspect.server.clients import ClientSessions
from pyinspect.server.tooling import add_tool
from pyinspect.session.recordings import Recordings

__all__ = ["register"]

TracePid = Annotated[int | None, Field(description="Process id as pyinspect sees it, a process in a container "
                                                     "included (default: the debug session's process)")]
Allocations = Annotated[bool, Field(description="Sample allocations with their call stacks (bytes per type)")]
Gc = Annotated[bool, Field(description="Record every GC (generation, reason, pause, sizes) and the runtime's "
                                       "counters every second")]
MaxSeconds = Annotated[float, Field(description="Stop by itself after this many seconds (1-3600)")]


def register(mcp: MCPServer, clients: ClientSessions) -> None:
    """The trace tools; each client's recordings are its own, closed with its MCP session."""
    def recordings() -> Recordings:
        return clients.session().recordings

    def trace_start(pid: TracePid = None, allocations: Allocations = True, gc: Gc = True,
                    max_seconds: MaxSeconds = 600.0) -> TraceStartAnswer:
        """Start recording a running .NET process's own event stream (EventPipe; the process
        keeps running): allocations sampled by the runtime with their call stacks, every GC,
        counters each second. Then exercise the program (debug_continue, send it requests)
        and call trace_stop. Use it after heap_diff names a growing type, to find the code
        that allocates it. TRACE_RUNNING if a recording already runs."""
        return recordings().start(pid, allocations, gc, max_seconds)

    def trace_stop() -> TraceAnswer:
        """Stop the recording and answer it: allocations per type (estimatedBytes and
        estimatedCount are estimates from `samples` sampled events; topStacks name the
        allocating method, user code first, each with its share), gcs (number, generation,
        reason, kind, pauseMs, sizes per generation before/after, promotedBytes), counters
        (alloc-rate, time-in-gc, gen sizes, gc-fragmentation, exception-count per second),
        the window's length and what was sampled. Takes a few seconds to read the events.
        NO_TRACE if none runs."""
        return recordings().stop()

    add_tool(mcp, trace_start, TraceStartAnswer, read_only=False, title="Start Recording Runtime Events")
    add_tool(mcp, trace_stop, TraceAnswer, read_only=False, title="Stop Recording")
