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
    SessionState,
)
from pyinspect.server.parameters import (
    AdapterChoice,
    Args,
    BreakpointId,
    Condition,
    Cwd,
    Env,
    ExceptionFilter,
    ExceptionType,
    File,
    HitCount,
    Line,
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
from pyinspect.session import Session

__all__ = ["register"]

MAX_TIMEOUT_MS = 600_000
TITLES = {
    "debug_launch": "Launch Program", "debug_attach": "Attach to Process", "debug_disconnect": "End Session",
    "debug_state": "Session State", "debug_wait": "Wait for Stop", "debug_continue": "Continue",
    "debug_pause": "Pause", "debug_step": "Step", "breakpoint_set": "Set Breakpoint",
    "breakpoint_remove": "Remove Breakpoint", "breakpoint_list": "List Breakpoints",
    "breakpoint_set_exception": "Break on Exceptions",
}
ENDS_A_PROCESS = ("debug_launch", "debug_disconnect")
"""debug_launch ends the previous session (terminating what it launched); debug_disconnect
terminates a launched program by default: both are marked destructive."""


def _seconds(timeout_ms: int) -> float:
    if not 0 <= timeout_ms <= MAX_TIMEOUT_MS:
        raise InvalidParameterError(f"timeout_ms must be 0-{MAX_TIMEOUT_MS}, got {timeout_ms}")
    return timeout_ms / 1000.0


def register(mcp: MCPServer, get_session: Callable[[], Session]) -> None:
    def debug_launch(program: Program, args: Args = None, cwd: Cwd = None, env: Env = None,
                     stop_at_entry: StopAtEntry = False, adapter: AdapterChoice = None) -> SessionState:
        """Start a .NET program (a .dll run with `dotnet`, or an apphost) under the debugger.
        Breakpoints set before (breakpoint_set) bind before user code runs. Returns at once;
        call debug_wait next to block until a breakpoint is hit, the entry is reached
        (stop_at_entry=true) or the program exits. Ends any previous session."""
        return get_session().launch(program, args, cwd, env, stop_at_entry, adapter)

    def debug_attach(pid: Pid, adapter: AdapterChoice = None) -> SessionState:
        """Attach to a running .NET process by pid, leaving it running. Use debug_pause to stop
        it, or breakpoint_set then debug_wait. debug_disconnect detaches without killing it."""
        return get_session().attach(pid, adapter)

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
        return get_session().continue_(wait, _seconds(timeout_ms))

    def debug_pause() -> SessionState:
        """Stop a running process now (all threads); then inspect it with threads_list,
        stacktrace_get, variables_get."""
        return get_session().pause()

    def debug_step(mode: StepMode = "over", thread_id: ThreadId = None, timeout_ms: WaitMs = 30000) -> SessionState:
        """Step the paused thread (default: the current one) over the current line, into the call
        on it, or out of the current method; returns the new paused state and location."""
        return get_session().step(mode, thread_id, _seconds(timeout_ms))

    def breakpoint_set(file: File, line: Line, condition: Condition = None,
                       hit_count: HitCount = None) -> BreakpointAnswer:
        """Break at a source line (full path of the .cs file). Allowed before any session: the
        breakpoint is pending until debug_launch/debug_attach and survives later launches.
        condition: a C# boolean expression; hit_count: stop only from the Nth hit on."""
        return BreakpointAnswer(breakpoint=get_session().set_breakpoint(file, line, condition, hit_count).info())

    def breakpoint_remove(id: BreakpointId) -> BreakpointAnswer:
        """Remove a breakpoint by the id breakpoint_set or breakpoint_list gave."""
        return BreakpointAnswer(breakpoint=get_session().remove_breakpoint(id).info())

    def breakpoint_list() -> BreakpointListAnswer:
        """Every breakpoint with whether it is bound (verified), its bound line and hit count so far.
        Use it after debug_launch/debug_attach to check that each breakpoint bound."""
        table = get_session().breakpoints
        return BreakpointListAnswer(breakpoints=[b.info() for b in table.all()],
                                    exception_filters=[table.exception_filter] if table.exception_filter else [],
                                    exception_type=table.exception_type)

    def breakpoint_set_exception(filter: ExceptionFilter, exception_type: ExceptionType = None) -> ExceptionBreakpointAnswer:
        """Stop when an exception is thrown: filter "all" (every throw) or "user_unhandled"
        (not handled by user code); exception_type narrows to one .NET type. Kept across
        launches like line breakpoints."""
        applied = get_session().set_exception_breakpoint(filter, exception_type)
        return ExceptionBreakpointAnswer(filter=filter, exception_type=exception_type, applied=applied)

    changing: tuple[Callable[..., BaseModel], ...] = (
        debug_launch, debug_attach, debug_disconnect, debug_continue, debug_pause, debug_step,
        breakpoint_set, breakpoint_remove, breakpoint_set_exception)
    reading: tuple[Callable[..., BaseModel], ...] = (debug_state, debug_wait, breakpoint_list)
    for tool in changing:
        add_tool(mcp, tool, _output(tool), read_only=False, title=TITLES[tool.__name__],
                 destructive=tool.__name__ in ENDS_A_PROCESS)
    for tool in reading:
        add_tool(mcp, tool, _output(tool), read_only=True, title=TITLES[tool.__name__])


def _output(tool: Callable[..., object]) -> type:
    import inspect
    return inspect.signature(tool, eval_str=True).return_annotation  # type: ignore[no-any-return]
