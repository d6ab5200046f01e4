"""A crash dump's killing exception: the current exception of a thread in a dump (the runtime
writes a crash dump while that thread dispatches its unhandled exception), with the stack it
carries and its inner exceptions. A live process has not crashed: not checked there."""

from __future__ import annotations

from pyinspect.answers.diagnosis.evidence import label, thread_evidence, user_frame, where
from pyinspect.answers.diagnosis.observations import Observations
from pyinspect.models.diagnosis import Evidence, EvidenceObject, Finding, Thresholds
from pyinspect.models.triage import ExceptionInfo

__all__ = ["killing_exception"]


def _chain(exception: ExceptionInfo) -> list[ExceptionInfo]:
    found: list[ExceptionInfo] = []
    current: ExceptionInfo | None = exception
    while current is not None and len(found) < 10:
        found.append(current)
        current = current.inner
    return found


def killing_exception(seen: Observations, limits: Thresholds) -> list[Finding]:
    current = next((e for e in seen.exceptions.exceptions if e.thread is not None), None)
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

