"""Answers of process_output and exception_get (snake_case like the session tools)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["DebugException", "ExceptionAnswer", "ExceptionFrame", "OutputAnswer", "OutputEntry"]


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class OutputEntry(_Answer):
    index: int
    stream: str
    text: str


class OutputAnswer(_Answer):
    """A page of the program's output. `available` is false for an attached process, whose
    stdout/stderr go where it was started; `dropped` counts chunks lost to the size cap
    before `cursor`; `truncated` means more is waiting at `next_cursor`."""

    success: bool = True
    available: bool
    message: str | None = None
    cursor: int
    next_cursor: int
    total: int
    dropped: int = 0
    truncated: bool
    entries: list[OutputEntry]


class ExceptionFrame(_Answer):
    function: str
    file: str | None = None
    line: int | None = None


class DebugException(_Answer):
    """The exception a paused debuggee stopped on, as the adapter describes it (the heap's
    exception objects are triage.ExceptionInfo)."""

    type: str
    message: str
    stack_trace: str | None = None
    frames: list[ExceptionFrame] = []
    inner_exceptions: list[DebugException] = []


class ExceptionAnswer(_Answer):
    """`break_mode` is where the runtime says the exception goes: always (first chance, a
    handler may still catch it), unhandled, or userUnhandled (only an async method's
    task catches it)."""

    success: bool = True
    thread_id: int
    break_mode: str
    exception: DebugException
