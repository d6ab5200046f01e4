"""Answers of the seed inspection tools, exactly as contracts/inspection.md shapes them
(snake_case names; optional fields are left out when absent, not sent as null)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "DebugThread",
    "EvaluateAnswer",
    "FrameArgument",
    "FrameInfo",
    "StackTraceAnswer",
    "ThreadLocation",
    "ThreadsAnswer",
    "VariableInfo",
    "VariablesAnswer",
]


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class ThreadLocation(_Answer):
    function: str
    file: str | None = None
    line: int | None = None


class DebugThread(_Answer):
    """A thread as the debug adapter lists it (the heap's view of a thread is triage.ThreadInfo)."""

    id: int
    name: str
    state: Literal["running", "stopped", "waiting"]
    is_current: bool = False
    location: ThreadLocation | None = None


class ThreadsAnswer(_Answer):
    success: bool = True
    threads: list[DebugThread]


class FrameArgument(_Answer):
    name: str
    type: str
    value: str


class FrameInfo(_Answer):
    index: int
    function: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    module: str | None = None
    arguments: list[FrameArgument] | None = None
    is_external: bool | None = None


class StackTraceAnswer(_Answer):
    success: bool = True
    thread_id: int
    total_frames: int
    frames: list[FrameInfo]


class VariableInfo(_Answer):
    name: str
    type: str
    value: str
    has_children: bool
    children_count: int | None = None
    scope: Literal["argument", "local"] | None = None
    parent: str | None = None
    value_truncated: bool | None = None


class VariablesAnswer(_Answer):
    """One page of variables: `start` is the first one's position, `total` how many there
    are (when the adapter says), `truncated` true when more follow at `next_start`."""

    success: bool = True
    variables: list[VariableInfo]
    start: int = 0
    total: int | None = None
    truncated: bool = False
    next_start: int | None = None


class EvaluateAnswer(_Answer):
    success: bool = True
    result: str
    type: str
    has_children: bool
