"""Notebook face of a debug session: :class:`Debugger`, made by ``pyinspect.launch`` or
``pyinspect.debug_attach``.

    dbg = pyinspect.launch("bin/App.dll", breakpoints=[("Program.cs", 42)])
    dbg.wait()                      # paused at the breakpoint (or exited)
    dbg.stack()                     # pandas DataFrame: index, function, file, line, module
    dbg.locals()                    # DataFrame: name, type, value, scope, has_children
    dbg.eval("order.Total")         # '12.5'
    dbg.collection("orders")        # CollectionAnalysis read from the heap
    dbg.path_to_root("orders")      # why alive: paths from its roots, stack roots name their local
    dbg.step(); dbg.cont(); dbg.close()

The same Session the MCP server drives, so answers are the tools' answers; tables come
as DataFrames for reading, models for everything else.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from pyinspect.closing import ClosesOnExit
from pyinspect.debugger_heap import HeapPathMethods
from pyinspect.errors import (
    DepthExceededError,
    InvalidParameterError,
    SetupMissingError,
    VariableUnavailableError,
)
from pyinspect.models.heap import HeapObject
from pyinspect.models.memory import CollectionAnalysis, ObjectSummary
from pyinspect.models.session import BreakpointInfo, SessionState
from pyinspect.session import ResolvedValue, Session

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["Debugger", "debug_attach", "launch"]

BreakpointSpec = tuple[str, int]


class Debugger(HeapPathMethods, ClosesOnExit):
    """One debug session for interactive use; ``close()`` (or ``with``) ends it the way
    debug_disconnect does: a launched program is terminated, an attached one detached."""

    def __init__(self, session: Session) -> None:
        self.session = session

    # ---- moving ----------------------------------------------------------------------

    def break_at(self, file: str, line: int, condition: str | None = None,
                 hit_count: int | None = None) -> BreakpointInfo:
        return self.session.set_breakpoint(file, line, condition, hit_count).info()

    def breakpoints(self) -> pd.DataFrame:
        """Every breakpoint: id, file, line, condition, hit_count, verified, hits, bound_line."""
        return self._table([b.info() for b in self.session.breakpoints.all()],
                           ["id", "file", "line", "condition", "hit_count", "verified", "hits", "bound_line"])

    def clear(self, breakpoint_id: int) -> BreakpointInfo:
        """Remove a breakpoint by the id break_at gave."""
        return self.session.remove_breakpoint(breakpoint_id).info()

    def wait(self, timeout: float = 30.0) -> SessionState:
        """Block until paused or exited (at most timeout seconds)."""
        return self.session.wait(timeout)

    def cont(self, wait: bool = True, timeout: float = 30.0) -> SessionState:
        return self.session.continue_(wait, timeout)

    def step(self, mode: Literal["over", "into", "out"] = "over", timeout: float = 30.0) -> SessionState:
        return self.session.step(mode, None, timeout)

    def pause(self) -> SessionState:
        return self.session.pause()

    @property
    def state(self) -> SessionState:
        return self.session.snapshot()

    # ---- reading ---------------------------------------------------------------------

    def threads(self) -> pd.DataFrame:
        """Managed threads: id, name, state, is_current and, while paused, where each one is."""
        import pandas as pd

        rows = [(t.id, t.name, t.state, t.is_current, t.location.function if t.location else None,
                 t.location.file if t.location else None, t.location.line if t.location else None)
                for t in self.session.inspector.threads().threads]
        return pd.DataFrame(rows, columns=["id", "name", "state", "is_current", "function", "file", "line"])

    def stack(self, thread_id: int | None = None, max_frames: int = 20) -> pd.DataFrame:
        """Frames of a paused thread, top first."""
        import pandas as pd

        frames = self.session.inspector.stack_trace(thread_id, 0, max_frames).frames
        return pd.DataFrame([(f.index, f.function, f.file, f.line, f.module) for f in frames],
                            columns=["index", "function", "file", "line", "module"])

    def locals(self, frame: int = 0, scope: Literal["locals", "arguments", "this", "all"] = "all",
               thread_id: int | None = None) -> pd.DataFrame:
        """Variables of a frame: name, type, value, scope (argument/local), has_children."""
        return self._variables(self.session.inspector.variables(thread_id, frame, scope, None).variables)

    def children(self, path: str, frame: int = 0, thread_id: int | None = None) -> pd.DataFrame:
        """The children of a value at a path ("this._customer", "items[2]")."""
        return self._variables(self.session.inspector.variables(thread_id, frame, "all", path).variables)

    def eval(self, expression: str, frame: int = 0, thread_id: int | None = None) -> str:
        """An expression's value as the debugger shows it (raises EvaluationError)."""
        return self.session.inspector.evaluate(expression, thread_id, frame, "default").result

    def set(self, expression: str, value: str | float | bool | None, frame: int = 0,
            thread_id: int | None = None) -> str:
        """Write a number, bool, string or None into a variable, field or array element of the
        paused program (``dbg.set("order.Total", 42.5)``); answers the new value as shown."""
        return self.session.inspector.set_value(expression, csharp_literal(value), thread_id, frame)

    @staticmethod
    def _variables(rows: Iterable[object]) -> pd.DataFrame:
        return Debugger._table(rows, ["name", "type", "value", "scope", "has_children"])

    @staticmethod
    def _table(rows: Iterable[object], columns: list[str]) -> pd.DataFrame:
        """A DataFrame of the models' attributes named by the columns."""
        import pandas as pd

        return pd.DataFrame([[getattr(row, c) for c in columns] for row in rows], columns=columns)

    # ---- memory ----------------------------------------------------------------------

    def collection(self, expression: str, max_preview_items: int = 5, timeout_ms: int = 5000,
                   frame: int = 0) -> CollectionAnalysis:
        """collection_analyze: the whole collection read from the heap."""
        value = self._heap_value(expression, frame)
        return self.session.heap().analyze_collection(value.address or 0, max_preview_items, timeout_ms)

    def summary(self, expression: str, max_preview_items: int = 5, frame: int = 0) -> ObjectSummary:
        """object_summarize: field values, null and suspicious fields."""
        value = self._heap_value(expression, frame)
        return self.session.heap().summarize_object(value.address or 0, max_preview_items)

    def object(self, expression: str, depth: int = 1, frame: int = 0) -> HeapObject:
        """object_inspect: address, size and every field with its offset."""
        if not 1 <= depth <= 10:
            raise DepthExceededError(f"depth must be 1-10, got {depth}", depth=depth)
        value = self._heap_value(expression, frame)
        return self.session.heap().object(value.address or 0, depth=depth)

    def _heap_value(self, expression: str, frame: int) -> ResolvedValue:
        self.session.require_paused()
        value = self.session.resolve_value(expression, None, frame)
        if value.is_null:
            raise VariableUnavailableError(f"'{expression}' is null", expression=expression)
        if value.address is None:
            if self.session.active_adapter != "pyinspect":
                raise SetupMissingError("reading the heap needs pyinspect's own adapter (memory addresses)")
            raise InvalidParameterError(f"'{expression}' is a struct value ({value.type_name}), not a heap object; "
                                        "read its fields with children()", expression=expression)
        return value

    # ---- ending ----------------------------------------------------------------------

    def close(self, terminate: bool | None = None) -> None:
        if self.session.active_adapter is not None:
            self.session.disconnect(terminate)
        self.session.close()

    def __repr__(self) -> str:
        state = self.session.snapshot()
        where = f" at {state.location.function}:{state.location.line}" if state.location else ""
        return f"<pyinspect.Debugger {state.mode or 'idle'} pid={state.pid} {state.state}{where}>"


def csharp_literal(value: str | float | bool | None) -> str:
    """A Python value as the C# literal setExpression takes."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)  # its escapes (\\, \", \n, \uXXXX) are C#'s too
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidParameterError(f"{value} has no C# literal")
    return repr(value)


def launch(program: str, args: list[str] | None = None, *, breakpoints: Iterable[BreakpointSpec] = (),
           cwd: str | None = None, env: dict[str, str] | None = None, stop_at_entry: bool = False,
           adapter: str = "pyinspect") -> Debugger:
    """Start a .NET program under the debugger with breakpoints [(file, line), ...] bound
    before user code runs; returns while it runs (call ``wait()``)."""
    session = Session(adapter=adapter)
    for file, line in breakpoints:
        session.set_breakpoint(file, line)
    session.launch(program, args, cwd, env, stop_at_entry)
    return Debugger(session)


def debug_attach(pid: int, *, breakpoints: Iterable[BreakpointSpec] = (), adapter: str = "pyinspect") -> Debugger:
    """Attach the debugger to a running .NET process (it keeps running; ``pause()``)."""
    session = Session(adapter=adapter)
    for file, line in breakpoints:
        session.set_breakpoint(file, line)
    session.attach(pid)
    return Debugger(session)
