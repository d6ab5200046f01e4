"""What the debugged program said and threw: process_output's pages and exception_get's
exception, read from the session (its output buffer) and the adapter (`exceptionInfo`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pyinspect.errors import InvalidParameterError, NoExceptionError, RequestFailedError
from pyinspect.models.process import (
    DebugException,
    ExceptionAnswer,
    ExceptionFrame,
    OutputAnswer,
    OutputEntry,
)

if TYPE_CHECKING:
    from pyinspect.session.debug_session import Session

__all__ = ["exception_at_stop", "read_output"]

MAX_OUTPUT_CHARS = 100_000
_FRAME = re.compile(r"^\s*at (?P<function>.+?)(?: in (?P<file>.+):line (?P<line>\d+))?\s*$")
_ATTACHED = ("attached process: its stdout/stderr go where it was started and cannot be read by the "
             "debugger; only the adapter's own messages (log points) appear here")


def read_output(session: Session, cursor: int, max_chars: int) -> OutputAnswer:
    if cursor < 0:
        raise InvalidParameterError(f"cursor must be 0 or more, got {cursor}")
    if not 1 <= max_chars <= MAX_OUTPUT_CHARS:
        raise InvalidParameterError(f"max_chars must be 1-{MAX_OUTPUT_CHARS}, got {max_chars}")
    session.require_session()
    page = session.output.read(cursor, max_chars)
    attached = session.debuggee.mode == "attach"
    return OutputAnswer(available=not attached, message=_ATTACHED if attached else None, cursor=cursor,
                        next_cursor=page.next_cursor, total=page.total, dropped=page.dropped,
                        truncated=page.truncated,
                        entries=[OutputEntry(index=c.index, stream=c.stream, text=c.text) for c in page.chunks])


def exception_at_stop(session: Session, thread_id: int | None) -> ExceptionAnswer:
    """The exception the thread is stopped at (default: the stopped thread)."""
    session.require_paused()
    stop = session.debuggee.current_stop
    thread = session.stop_reader.thread_or_current(thread_id)
    if stop is None or stop.reason != "exception":
        reason = stop.reason if stop is not None else "unknown"
        raise NoExceptionError(f"the process is paused by {reason!r}, not at an exception; set "
                               "breakpoint_set_exception and continue until it stops with stop_reason 'exception'")
    try:
        body = session.client.exception_info(thread)
    except RequestFailedError as exc:
        raise NoExceptionError(f"thread {thread} is not stopped at an exception: {exc.message}") from exc
    details = body.get("details") or {}
    info = _exception(details) if details else DebugException(type=str(body.get("exceptionId") or ""),
                                                              message=str(body.get("description") or ""))
    return ExceptionAnswer(thread_id=thread, break_mode=str(body.get("breakMode") or "always"), exception=info)


def _exception(details: dict[str, Any]) -> DebugException:
    stack = details.get("stackTrace")
    frames = [_frame(line) for line in str(stack or "").splitlines() if line.strip()]
    inner = [_exception(i) for i in details.get("innerException") or [] if isinstance(i, dict)]
    return DebugException(type=str(details.get("fullTypeName") or details.get("typeName") or ""),
                         message=str(details.get("message") or ""), stack_trace=stack or None,
                         frames=[f for f in frames if f is not None], inner_exceptions=inner)


def _frame(line: str) -> ExceptionFrame | None:
    found = _FRAME.match(line)
    if found is None:
        return None
    number = found.group("line")
    return ExceptionFrame(function=found.group("function"), file=found.group("file"),
                          line=int(number) if number else None)
