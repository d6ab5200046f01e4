"""Session tools: start, watch, move and end a debug session; breakpoints.

Thin: validate, one call into the Session, return a model."""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

from pyinspect.errors import InvalidParameterError
from pyinspect.models.session import (
    BreakpointAnswer,
    BreakpointListAnswer,
    ExceptionBreakpointAnswer,
    HandleCloseAnswer,
    SessionState,
)
from pyinspect.server.clients import ClientSessions
from pyinspect.server.parameters import (
    AdapterChoice,
    Alongside,
    Args,
    BreakpointId,
    ClearFilter,
    Condition,
    Cwd,
    Env,
    ExceptionFilter,
    ExceptionType,
    File,
    Function,
    HitCount,
    Line,
    LogMessage,
    PageCount,
    PageStart,
    Pid,
    Program,
    StepMode,
    StopAtEntry,
    Terminate,
    ThreadId,
    WaitForStop,
    WaitMs,
)
from pyinspect.server.tooling import add_tool

__all__ = ["register"]

MAX_TIMEOUT_MS = 600_000
TITLES = {
    "debug_launch": "Launch Program", "debug_attach": "Attach to Process", "debug_disconnect": "End Session",
    "debug_state": "Session State", "debug_wait": "Wait for Stop", "debug_continue": "Continue",
    "debug_pause": "Pause", "debug_step": "Step", "breakpoint_set": "Set Breakpoint",
    "breakpoint_remove": "Remove Breakpoint", "breakpoint_list": "List Breakpoints",
    "breakpoint_set_exception": "Break on Exceptions", "handle_close": "Close a Handle",
}
ENDS_A_PROCESS = ("debug_launch", "debug_disconnect", "handle_close")
"""debug_launch ends the previous session (terminating what it launched); debug_disconnect
and handle_close terminate a launched program: all are marked destructive."""


def _seconds(timeout_ms: int) -> float:
    if not 0 <= timeout_ms <= MAX_TIMEOUT_MS:
        raise InvalidParameterError(f"timeout_ms must be 0-{MAX_TIMEOUT_MS}, got {timeout_ms}")
    return timeout_ms / 1000.0


def register(mcp: MCPServer, clients: ClientSessions) -> None:
    get_session = clients.session
    def debug_launch(program: Program, args: Args = None, cwd: Cwd = None, env: Env = None,
                     stop_at_entry: StopAtEntry = False, adapter: AdapterChoice = None,
                     alongside: Alongside = False) -> SessionState:
        """Start a .NET program (a .dll run with `dotnet`, or an apphost) under the debugger.
        Breakpoints set before (breakpoint_set) bind before user code runs. Returns at once;
        call debug_wait next to block until a breakpoint is hit, the entry is reached
        (stop_at_entry=true) or the program exits. Ends the debuggee this debug session had
        (a launched one terminated), unless alongside=true starts a second debug session."""
        return (clients.beside() if alongside else get_session()).launch(program, args, cwd, env, stop_at_entry,
                                                                          adapter)

    def debug_attach(pid: Pid, adapter: AdapterChoice = None, alongside: Alongside = False) -> SessionState:
        """Attach to a running .NET process by pid, leaving it running. Use debug_pause to stop
        it, or breakpoint_set then debug_wait. debug_disconnect detaches without killing it.
        Ends the debuggee this debug session had, unless alongside=true."""
        return (clients.beside() if alongside else get_session()).attach(pid, adapter)

    def debug_disconnect(terminate: Terminate = None) -> SessionState:
        """End the session. By default a launched program is terminated and an attached one
        is detached and keeps running; terminate=true/false overrides. Never leaves the
        process stopped."""
        return get_session().disconnect(terminate)

    def debug_state() -> SessionState:
        """Where the session stands now, without waiting: not_started, running, paused (with
        stop reason, thread and source location) or exited (with exit code)."""
        return get_session().snapshot()

    def debug_wait(timeout_ms: WaitMs = 30000) -> SessionState:
        """Block until the process is paused (breakpoint, step, pause, exception) or has exited,
        at most timeout_ms. Use after debug_launch, debug_continue(wait=false) or when a
        breakpoint is expected; timed_out=true means it is still running."""
        return get_session().wait(_seconds(timeout_ms))

    def debug_continue(wait: WaitForStop = True, timeout_ms: WaitMs = 30000) -> SessionState:
        """Resume a paused process. With wait=true (default) blocks until the next stop or exit
        (at most timeout_ms) and returns that state."""
        return get_session().resume(wait, _seconds(timeout_ms))

    def debug_pause() -> SessionState:
        """Stop a running process now (all threads); then inspect it with threads_list,
        stacktrace_get, variables_get."""
        return get_session().pause()

    def debug_step(mode: StepMode = "over", thread_id: ThreadId = None, timeout_ms: WaitMs = 30000) -> SessionState:
        """Step the paused thread (default: the current one) over the current line, into the call
        on it, or out of the current method; returns the new paused state and location."""
        return get_session().step(mode, thread_id, _seconds(timeout_ms))

    def breakpoint_set(file: File = None, line: Line = None, function: Function = None, condition: Condition = None,
                       hit_count: HitCount = None, log_message: LogMessage = None) -> BreakpointAnswer:
        """Break at a source line (file: full path of the .cs file, and line) or at the start
        of a method (function: Method, Type.Method or Namespace.Type.Method; every overload,
        or those a parameter list such as `Compute(int, string)` picks). Allowed before any
        session: pending until debug_launch/debug_attach, kept across launches; check
        `verified` (and `message`) with breakpoint_list after the launch. condition: a C#
        boolean expression, parsed now (a syntax error is INVALID_PARAMETER); hit_count:
        stop only from the Nth hit on; log_message: a log point, which prints to
        process_output ({expr} parts evaluated) and does not stop."""
        breakpoint = get_session().set_breakpoint(file, line, condition, hit_count, function, log_message)
        return BreakpointAnswer(breakpoint=breakpoint.info())

    def breakpoint_remove(id: BreakpointId) -> BreakpointAnswer:
        """Remove a breakpoint (line, function or log point) by the id breakpoint_set or
        breakpoint_list gave; a running session stops using it at once."""
        return BreakpointAnswer(breakpoint=get_session().remove_breakpoint(id).info())

    def breakpoint_list(start: PageStart = 0, count: PageCount = 100) -> BreakpointListAnswer:
        """The breakpoints (a page: start, count; total and truncated say if more exist) with
        whether each is bound (verified; else `message` says why), its bound line and hits
        so far, and the exception filters in force. Use it after debug_launch/debug_attach
        to check that each breakpoint bound."""
        if start < 0 or not 1 <= count <= 500:
            raise InvalidParameterError(f"start must be 0 or more and count 1-500, got {start}, {count}")
        table = get_session().breakpoints
        everything = table.all()
        filters = dict(table.exception_filters)
        return BreakpointListAnswer(breakpoints=[b.info() for b in everything[start:start + count]], start=start,
                                    total=len(everything), truncated=start + count < len(everything),
                                    exception_filters=list(filters),
                                    exception_types={k: v for k, v in filters.items() if v})

    def breakpoint_set_exception(filter: ExceptionFilter, exception_type: ExceptionType = None,
                                 clear: ClearFilter = False) -> ExceptionBreakpointAnswer:
        """Stop when an exception is thrown: filter "all" (every throw, even one caught later)
        or "user_unhandled" (about to go unhandled by user code). Each filter is added or
        replaced on its own, both can be on; clear=true removes one. exception_type narrows
        the filter to that .NET type (System.InvalidOperationException). Kept across launches.
        At the stop, exception_get gives the exception."""
        session = get_session()
        applied = session.set_exception_breakpoint(filter, exception_type, clear)
        return ExceptionBreakpointAnswer(filter=filter, exception_type=None if clear else exception_type,
                                         cleared=clear, exception_filters=list(session.breakpoints.exception_filters),
                                         applied=applied)

    def handle_close() -> HandleCloseAnswer:
        """End what a handle names, when you are done with it (pass it as handle): a debug
        session (a launched program is terminated, an attached one detached and left
        running), a heap or dump (closed), a recording (stopped unread). The handle answers
        HANDLE_CLOSED from then on; the rest you hold stays open. Unclosed handles expire
        when idle, so closing frees memory and processes sooner."""
        kind, ended = clients.close_handle()
        return HandleCloseAnswer(kind=kind, message=f"closed the {kind}: {ended}")

    changing: tuple[Callable[..., BaseModel], ...] = (
        debug_launch, debug_attach, debug_disconnect, debug_continue, debug_pause, debug_step,
        breakpoint_set, breakpoint_remove, breakpoint_set_exception, handle_close)
    reading: tuple[Callable[..., BaseModel], ...] = (debug_state, debug_wait, breakpoint_list)
    for tool in changing:
        add_tool(mcp, tool, _output(tool), read_only=False, title=TITLES[tool.__name__],
                 destructive=tool.__name__ in ENDS_A_PROCESS)
    for tool in reading:
        add_tool(mcp, tool, _output(tool), read_only=True, title=TITLES[tool.__name__])


def _output(tool: Callable[..., object]) -> type:
    import inspect
    return inspect.signature(tool, eval_str=True).return_annotation  # type: ignore[no-any-return]
