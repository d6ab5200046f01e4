"""Notebook face of a debug session: :class:`Debugger`, made by ``pyinspect.launch`` or
``pyinspect.attach``.

    dbg = pyinspect.launch("bin/App.dll", breakpoints=[("Program.cs", 42)])
    dbg.wait()                      # paused at the breakpoint (or exited)
    dbg.stack()                     # pandas DataFrame: index, function, file, line, module
    dbg.locals()                    # DataFrame: name, type, value, scope, has_children
    dbg.eval("order.Total")         # EvalResult '12.5' with .type 'decimal'
    dbg.collection("orders")        # CollectionAnalysis read from the heap
    dbg.path_to_root("orders")      # why alive: paths from its roots, stack roots name their local
    dbg.step(); dbg.resume(); dbg.close()

The same Session and the same calls the MCP tools make, so answers are the tools'
answers, with the tools' parameter names (thread_id, frame_index, max_preview_items...);
tables come as DataFrames, everything else as models. Times are in seconds here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from pyinspect.errors import InvalidParameterError
from pyinspect.models.process import ExceptionAnswer
from pyinspect.models.session import BreakpointInfo, SessionState
from pyinspect.notebook.closing import ClosesOnExit
from pyinspect.notebook.debugger_heap import HeapPathMethods
from pyinspect.notebook.debugger_memory import MemoryMethods
from pyinspect.notebook.recording import Recording, record
from pyinspect.notebook.values import EvalResult, csharp_literal
from pyinspect.session.debug_session import Session
from pyinspect.session.process_reports import exception_at_stop

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["BreakpointSpec", "Debugger", "launch", "start_attached"]

BreakpointSpec = tuple[str, int]
Scope = Literal["locals", "arguments", "this", "all"]


class Debugger(MemoryMethods, HeapPathMethods, ClosesOnExit):
    """One debug session for interactive use. ``close()`` (or leaving a ``with`` block)
    ends it the way debug_disconnect does: a launched program is terminated, an attached
    one detached and left running."""

    def __init__(self, session: Session) -> None:
        self.session = session

    # ---- breakpoints -------------------------------------------------------------------

    def break_at(self, file: str | None = None, line: int | None = None, condition: str | None = None,
                 hit_count: int | None = None, *, function: str | None = None,
                 log_message: str | None = None) -> BreakpointInfo:
        """Set a breakpoint (breakpoint_set): a source line, or a method by name.

        Args: file (full path of the .cs file) and line, or function (Method, Type.Method or
        Namespace.Type.Method, optionally with a parameter list);
        condition (C#, parsed now), hit_count (stop from the Nth hit), log_message (print
        instead of stopping). Returns its BreakpointInfo (``verified`` once bound).
        Raises InvalidParameterError (no such file, bad condition).
        Example: ``dbg.break_at("/src/Program.cs", 42, condition="i > 3")``"""
        return self.session.set_breakpoint(file, line, condition, hit_count, function, log_message).info()

    def breakpoints(self) -> pd.DataFrame:
        """Every breakpoint (breakpoint_list) as a DataFrame: id, file, line, function,
        condition, hit_count, verified, hits, bound_line. Example: ``dbg.breakpoints()``"""
        return self._table([b.info() for b in self.session.breakpoints.all()],
                           ["id", "file", "line", "function", "condition", "hit_count", "verified", "hits",
                            "bound_line"])

    def remove_breakpoint(self, breakpoint_id: int) -> BreakpointInfo:
        """Remove a breakpoint by the id break_at gave (breakpoint_remove); returns it.
        Raises UnknownBreakpointError. Example: ``dbg.remove_breakpoint(1)``"""
        return self.session.remove_breakpoint(breakpoint_id).info()

    # ---- moving ------------------------------------------------------------------------

    def wait(self, timeout: float = 30.0) -> SessionState:
        """Block until paused or exited, at most timeout seconds (debug_wait).
        Returns the SessionState (``timed_out`` when still running). Example: ``dbg.wait(20)``"""
        return self.session.wait(timeout)

    def resume(self, wait: bool = True, timeout: float = 30.0) -> SessionState:
        """Resume the paused process (debug_continue); with wait, block until the next stop or
        exit (at most timeout seconds). Raises NotPausedError. Example: ``dbg.resume()``"""
        return self.session.resume(wait, timeout)

    cont = resume
    continue_ = resume

    def step(self, mode: Literal["over", "into", "out"] = "over", timeout: float = 30.0,
             thread_id: int | None = None) -> SessionState:
        """Step a paused thread (default: the one that stopped) over the line, into its call,
        or out of the method (debug_step); returns the new state. Raises NotPausedError,
        UnknownThreadError. Example: ``dbg.step("into")``"""
        return self.session.step(mode, thread_id, timeout)

    def pause(self) -> SessionState:
        """Stop the running process now (debug_pause); returns the paused state.
        Example: ``dbg.pause().location``"""
        return self.session.pause()

    @property
    def state(self) -> SessionState:
        """Where the session stands now, without waiting (debug_state)."""
        return self.session.snapshot()

    # ---- reading -----------------------------------------------------------------------

    def threads(self) -> pd.DataFrame:
        """Managed threads (threads_list): id, name, state, is_current and, while paused,
        function, file and line of each. Example: ``dbg.threads()``"""
        import pandas as pd

        rows = [(t.id, t.name, t.state, t.is_current, t.location.function if t.location else None,
                 t.location.file if t.location else None, t.location.line if t.location else None)
                for t in self.session.stop_reader.threads().threads]
        return pd.DataFrame(rows, columns=["id", "name", "state", "is_current", "function", "file", "line"])

    def stack(self, thread_id: int | None = None, max_frames: int = 20, start_frame: int = 0) -> pd.DataFrame:
        """Frames of a paused thread, top first (stacktrace_get): index, function, file, line,
        module. Raises NotPausedError, UnknownThreadError. Example: ``dbg.stack(max_frames=5)``"""
        import pandas as pd

        frames = self.session.stop_reader.stack_trace(thread_id, start_frame, max_frames).frames
        return pd.DataFrame([(f.index, f.function, f.file, f.line, f.module) for f in frames],
                            columns=["index", "function", "file", "line", "module"])
    def locals(self, frame_index: int = 0, scope: Scope = "all", thread_id: int | None = None) -> pd.DataFrame:
        """Variables of a frame (variables_get): name, type, value, scope, has_children.
        Raises NotPausedError, UnknownFrameError. Example: ``dbg.locals(1, scope="arguments")``"""
        return self._variables(self.session.stop_reader.variables(thread_id, frame_index, scope, None).variables)
    def children(self, path: str, frame_index: int = 0, thread_id: int | None = None) -> pd.DataFrame:
        """The children of the value at a path (variables_get with expand): same columns as
        locals. Raises VariableUnavailableError. Example: ``dbg.children("this._customer")``"""
        return self._variables(self.session.stop_reader.variables(thread_id, frame_index, "all", path).variables)
    def eval(self, expression: str, frame_index: int = 0, thread_id: int | None = None,
             format: Literal["default", "hex", "binary"] = "default", allow_calls: bool = False) -> EvalResult:
        """Evaluate a C# expression in a paused frame (evaluate; allow_calls=True is
        evaluate_with_calls, which may run debuggee code and change the program).
        Returns an EvalResult: the text as a str, with .type and .has_children.
        Raises EvaluationError, EvaluationNeedsCallError, NotPausedError.
        Example: ``dbg.eval("orders.Count")`` -> '3'"""
        answer = self.session.stop_reader.evaluate(expression, thread_id, frame_index, format, allow_calls)
        return EvalResult(answer.result, answer.type, answer.has_children)
    def set(self, expression: str, value: str | float | bool | None, frame_index: int = 0,
            thread_id: int | None = None) -> str:
        """Write a number, bool, str or None into a variable, field or element of the paused
        program; returns the new value as the debugger shows it. Raises InvalidParameterError
        (NaN), PyInspectError (the adapter refused). Example: ``dbg.set("order.Total", 42.5)``"""
        return self.session.stop_reader.set_value(expression, csharp_literal(value), thread_id, frame_index)

    def exception(self, thread_id: int | None = None) -> ExceptionAnswer:
        """At an exception stop (exception_get): type, message, stack, inner exceptions.
        Raises NoExceptionError when not stopped at one. Example: ``dbg.exception().exception.type``"""
        return exception_at_stop(self.session, thread_id)

    @staticmethod
    def _variables(rows: Iterable[object]) -> pd.DataFrame:
        return Debugger._table(rows, ["name", "type", "value", "scope", "has_children"])

    @staticmethod
    def _table(rows: Iterable[object], columns: list[str]) -> pd.DataFrame:
        """A DataFrame of the models' attributes named by the columns."""
        import pandas as pd

        return pd.DataFrame([[getattr(row, c) for c in columns] for row in rows], columns=columns)

    # ---- ending ------------------------------------------------------------------------

    def record(self, *, allocations: bool = True, gc: bool = True, max_seconds: float = 600.0) -> Recording:
        """Record the debuggee's runtime events (trace_start on this session's process):
        allocations with their stacks, GCs, counters; stops at ``rec.stop()`` or the end of
        a ``with`` block. Raises InvalidParameterError when no process runs yet or it is
        paused (its runtime starts and stops a recording only while it runs; so does stop()).
        Example: ``with dbg.record() as rec: dbg.resume()`` then ``rec.allocations()``"""
        pid = self.session.debuggee_pid()
        if pid is None:
            raise InvalidParameterError("no process to record: launch or attach first")
        self.session.recordings.refuse_if_paused(pid, "start")
        return record(pid, allocations=allocations, gc=gc, max_seconds=max_seconds,
                      check_can_stop=lambda: self.session.recordings.refuse_if_paused(pid, "stop"))

    def close(self, terminate: bool | None = None) -> None:
        """End the session (debug_disconnect): terminate what was launched, detach from what
        was attached; terminate=True/False overrides. Example: ``dbg.close()``"""
        if self.session.active_adapter is not None:
            self.session.disconnect(terminate)
        self.session.close()

    def __repr__(self) -> str:
        state = self.session.snapshot()
        where = f" at {state.location.function}:{state.location.line}" if state.location else ""
        return f"<pyinspect.Debugger {state.mode or 'idle'} pid={state.pid} {state.state}{where}>"


def launch(program: str, args: list[str] | None = None, *, breakpoints: Iterable[BreakpointSpec] = (),
           cwd: str | None = None, env: dict[str, str] | None = None, stop_at_entry: bool = False,
           adapter: str = "pyinspect") -> Debugger:
    """Start a .NET program under the debugger (debug_launch); returns while it runs.

    Args: program (a .dll run by dotnet, or an apphost), args, breakpoints [(file, line)...]
    bound before user code runs, cwd, env, stop_at_entry, adapter ("pyinspect" or
    "netcoredbg"). Returns a Debugger; call ``wait()``. Raises InvalidParameterError
    (no such program), AdapterError. Example:
    ``dbg = pyinspect.launch("bin/App.dll", breakpoints=[("/src/Program.cs", 42)])``"""
    session = Session(adapter=adapter)
    for file, line in breakpoints:
        session.set_breakpoint(file, line)
    session.launch(program, args, cwd, env, stop_at_entry)
    return Debugger(session)


def start_attached(pid: int, breakpoints: Iterable[BreakpointSpec] = (), adapter: str = "pyinspect") -> Debugger:
    """A Debugger attached to a running process (pyinspect.attach's work)."""
    session = Session(adapter=adapter)
    for file, line in breakpoints:
        session.set_breakpoint(file, line)
    session.attach(pid)
    return Debugger(session)
