"""Evidence pieces built from the readers' records: a thread with its managed frames, the
first frame of the program's own code, sizes as people read them."""

from __future__ import annotations

from collections.abc import Iterable

from pyinspect.models.diagnosis import EvidenceFrame, EvidenceThread
from pyinspect.models.triage import StackFrame, ThreadInfo, ThreadRef

__all__ = ["EVIDENCE_FRAMES", "LIBRARY_PREFIXES", "frames_of", "label", "megabytes", "method_name", "thread_evidence", "user_frame",
           "where"]

EVIDENCE_FRAMES = 12
LIBRARY_PREFIXES = ("System.", "Microsoft.", "Internal.", "Interop.")


def method_name(method: str) -> str:
    """``Ns.Type.Method(args)`` without its parameters."""
    return method.split("(", 1)[0]


def frames_of(frames: Iterable[StackFrame], limit: int = EVIDENCE_FRAMES) -> tuple[EvidenceFrame, ...]:
    managed = [f for f in frames if f.kind == "managed"]
    return tuple(EvidenceFrame(method=f.method, file=f.file, line=f.line) for f in managed[:limit])


def user_frame(frames: Iterable[StackFrame]) -> EvidenceFrame | None:
    """The leafmost managed frame of the program's own code (not the framework's)."""
    for f in frames:
        if f.kind == "managed" and not f.method.startswith(LIBRARY_PREFIXES):
            return EvidenceFrame(method=f.method, file=f.file, line=f.line)
    return None


def thread_evidence(thread: ThreadInfo, role: str) -> EvidenceThread:
    return EvidenceThread(os_thread_id=thread.os_thread_id, managed_thread_id=thread.managed_thread_id,
                          name=thread.name, role=role, blocked_in=thread.blocked_in,
                          waiting_for=thread.waiting_for, frames=frames_of(thread.frames))


def label(thread: ThreadInfo | ThreadRef) -> str:
    name = f" '{thread.name}'" if thread.name else ""
    return f"thread {thread.managed_thread_id}{name} (OS {thread.os_thread_id})"


def where(frame: EvidenceFrame | None) -> str:
    if frame is None:
        return "framework code"
    place = f" ({frame.file.rsplit('/', 1)[-1]}:{frame.line})" if frame.file and frame.line else ""
    return method_name(frame.method) + place


def megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"
