"""A crash dump's killing exception: a thread's current exception that no frame handles. The
first pass of exception dispatch records each frame it searches in the exception's stack trace
and stops at the frame whose handler catches it; an unhandled exception's trace therefore
reaches the thread's outermost managed frame (the runtime writes a crash dump then), while an
exception caught (or still being searched) in a healthy process stops short of it. With the
stack it carries and its inner exceptions. A live process has not crashed: not checked there."""

from __future__ import annotations

from pyinspect.models.diagnosis import Evidence, EvidenceObject, Finding, Thresholds
from pyinspect.models.triage import ExceptionInfo, ThreadInfo
from pyinspect.session.diagnosis.evidence import (
    label,
    method_name,
    thread_evidence,
    user_frame,
    where,
)
from pyinspect.session.diagnosis.observations import Observations

__all__ = ["killing_exception"]


def _chain(exception: ExceptionInfo) -> list[ExceptionInfo]:
    found: list[ExceptionInfo] = []
    current: ExceptionInfo | None = exception
    while current is not None and len(found) < 10:
        found.append(current)
        current = current.inner
    return found


def _unhandled(exception: ExceptionInfo, thread: ThreadInfo | None) -> bool:
    """The exception's trace reaches the thread's outermost managed frame: no frame caught it."""
    managed = [f for f in thread.frames if f.kind == "managed"] if thread else []
    if not managed or not exception.stack:
        return False
    outermost = method_name(managed[-1].method)
    return any(method_name(f.method) == outermost for f in exception.stack)


def killing_exception(seen: Observations, limits: Thresholds) -> list[Finding]:
    current = next((e for e in seen.exceptions.exceptions
                    if e.thread is not None and _unhandled(e, seen.thread(e.thread))), None)
    if current is None:
        return []
    thread = seen.thread(current.thread or 0)
    throw_site = user_frame(current.stack) or (user_frame(thread.frames) if thread else None)
    nested = _chain(current)
    inner = "".join(f"; inner {e.type}: {e.message}" for e in nested[1:])
    who = label(thread) if thread else f"thread OS {current.thread}"
    objects = tuple(EvidenceObject(address=e.address, type=e.type,
                                   role="the unhandled exception" if i == 0 else f"inner exception {i}")
                    for i, e in enumerate(nested))
    return [Finding(
        kind="crash", severity="critical", confidence="high",
        statement=f"crash: unhandled {current.type}: {current.message} on {who} at {where(throw_site)}{inner}",
        evidence=Evidence(threads=(thread_evidence(thread, "threw the exception"),) if thread else (),
                          objects=objects, methods=(throw_site,) if throw_site else (),
                          measures={"hResult": float(current.h_result)}),
        next_calls=("heap_exceptions", "heap_threads"))]

