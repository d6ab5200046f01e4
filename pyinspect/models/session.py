"""Answers of the session tools (debug_*, breakpoint_*): frozen, snake_case on the wire
like the inspection contract."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["BreakpointAnswer", "BreakpointInfo", "BreakpointListAnswer", "ExceptionBreakpointAnswer", "HandleCloseAnswer",
           "SessionState", "SessionStateName", "StopLocation"]

SessionStateName = Literal["not_started", "running", "paused", "exited"]


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class StopLocation(_Answer):
    function: str
    file: str | None = None
    line: int | None = None


class SessionState(_Answer):
    """Where the debug session stands. `stop_reason`, `thread_id` and `location` are set
    while paused; `exit_code` once the debuggee has exited."""

    success: bool = True
    state: SessionStateName
    pid: int | None = None
    program: str | None = None
    mode: Literal["launch", "attach"] | None = None
    adapter: str | None = None
    stop_reason: str | None = None
    description: str | None = None
    thread_id: int | None = None
    location: StopLocation | None = None
    hit_breakpoint_ids: list[int] | None = None
    exit_code: int | None = None
    timed_out: bool | None = None
    message: str | None = None


class BreakpointInfo(_Answer):
    """A breakpoint as the session keeps it: ids are pyinspect's own and survive launches."""

    id: int
    file: str | None = None
    line: int | None = None
    function: str | None = None
    condition: str | None = None
    hit_count: int | None = None
    log_message: str | None = None
    verified: bool
    hits: int = 0
    bound_line: int | None = None
    message: str | None = None


class BreakpointAnswer(_Answer):
    success: bool = True
    breakpoint: BreakpointInfo


class BreakpointListAnswer(_Answer):
    """A page of the breakpoints (`start`, `total`, `truncated`) and the exception filters
    in force, with the type each is narrowed to (exception_types)."""

    success: bool = True
    breakpoints: list[BreakpointInfo]
    start: int = 0
    total: int = 0
    truncated: bool = False
    exception_filters: list[str] = []
    exception_types: dict[str, str] = {}


class ExceptionBreakpointAnswer(_Answer):
    success: bool = True
    filter: Literal["all", "user_unhandled"]
    exception_type: str | None = None
    cleared: bool = False
    exception_filters: list[str] = []
    applied: bool


class HandleCloseAnswer(_Answer):
    """handle_close: what the handle named (`kind`) and what ending it did (`message`); the
    handle answers HANDLE_CLOSED from now on."""

    success: bool = True
    kind: Literal["debug session", "heap", "recording"]
    message: str
