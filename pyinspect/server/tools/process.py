"""The program as a process: process_list (the machine's .NET processes, so an agent can
find the pid for debug_attach and see beforehand whether pyinspect can debug it and read
its heap), and what the program said and threw: process_output and exception_get."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from pyinspect.models.process import ExceptionAnswer, OutputAnswer
from pyinspect.models.runtimes import ProcessListAnswer
from pyinspect.server.clients import ClientSessions
from pyinspect.server.parameters import ThreadId
from pyinspect.server.tooling import add_tool
from pyinspect.session.process_reports import exception_at_stop, read_output
from pyinspect.targets.processes import list_dotnet_processes

__all__ = ["register"]

Cursor = Annotated[int, Field(description="Index of the first output chunk to return: 0, or the next_cursor "
                                          "of the previous call")]
MaxChars = Annotated[int, Field(description="At most this many characters of text in the answer (1-100000)")]


def register(mcp: MCPServer, clients: ClientSessions) -> None:
    get_session = clients.session
    def process_list() -> ProcessListAnswer:
        """List the .NET processes on this machine: pid, command line, runtime (version,
        folder, self-contained or shared), whether pyinspect can debug it (canDebug) and read
        its heap (canReadHeap), and why not (reason). Use a pid from here for debug_attach."""
        return ProcessListAnswer(processes=list_dotnet_processes())

    def process_output(cursor: Cursor = 0, max_chars: MaxChars = 8000) -> OutputAnswer:
        """The launched program's stdout and stderr (startup lines, ILogger output, logged
        stack traces of failed requests) plus log point messages, oldest first, as chunks
        with their stream. Works while running or paused. Call with cursor=0, then pass
        next_cursor to get only what is new; `total` is how many chunks exist, `truncated`
        means more is waiting, `dropped` counts chunks lost to the 2 MB cap. For an attached
        process available=false: its stdout/stderr cannot be read by the debugger."""
        return read_output(get_session(), cursor, max_chars)

    def exception_get(thread_id: ThreadId = None) -> ExceptionAnswer:
        """At an exception stop (debug_wait says stop_reason "exception"; set one with
        breakpoint_set_exception): the exception's type, message, full stack at the throw
        with file and line per frame, inner exceptions, and break_mode, where the runtime
        says it goes: always (thrown; a handler may still catch it), unhandled, or
        userUnhandled (only an async method's task catches it). Use it first at such a stop;
        NO_EXCEPTION at any other stop."""
        return exception_at_stop(get_session(), thread_id)

    add_tool(mcp, process_list, ProcessListAnswer, read_only=True, title="List .NET processes")
    add_tool(mcp, process_output, OutputAnswer, read_only=True, title="Program Output")
    add_tool(mcp, exception_get, ExceptionAnswer, read_only=True, title="Current Exception")
