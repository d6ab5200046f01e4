"""Whether an answer read the whole target, and where it did not, why.

A damaged dump (or a heap caught mid-change) leaves parts unreadable: a segment whose
walk had to stop (its remaining objects unknown), references to no object, threads whose
stacks could not be read (their stack roots and frames missing). Every heap and triage
answer carries one :class:`Completeness` (the helper's CompletenessRecord, camelCase on
the wire), so a partial answer is never passed off as whole.
"""

from __future__ import annotations

from collections.abc import Iterable

from pyinspect.models.wire import WireModel

__all__ = ["COMPLETE", "Completeness", "StoppedSegment"]


class StoppedSegment(WireModel):
    """A segment the walk had to stop in: [stoppedAt, end) was not read, for ``reason``."""

    kind: str
    start: str
    end: str
    stopped_at: str
    reason: str


class Completeness(WireModel):
    """``complete`` is True only when nothing below was found; the rest says what is missing."""

    complete: bool
    stopped_segments: tuple[StoppedSegment, ...] = ()
    unresolved_references: int = 0
    unreadable_threads: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line for a person: "complete", or what was left unread and where."""
        if self.complete:
            return "complete"
        parts = [f"{s.kind} segment {s.start}-{s.end}: stopped at {s.stopped_at} ({s.reason}), "
                 f"{s.stopped_at}-{s.end} unread" for s in self.stopped_segments]
        if self.unresolved_references:
            parts.append(f"{self.unresolved_references:,} references to no object")
        if self.unreadable_threads:
            parts.append("stacks unreadable of OS threads " + ", ".join(str(t) for t in self.unreadable_threads))
        parts.extend(self.notes)
        return "INCOMPLETE: " + "; ".join(parts)

    @staticmethod
    def of(parts: Iterable[Completeness]) -> Completeness:
        """Several answers' completeness as one (a diff of two snapshots)."""
        every = list(parts)
        return Completeness(
            complete=all(p.complete for p in every),
            stopped_segments=tuple(s for p in every for s in p.stopped_segments),
            unresolved_references=sum(p.unresolved_references for p in every),
            unreadable_threads=tuple(t for p in every for t in p.unreadable_threads),
            notes=tuple(n for p in every for n in p.notes))


COMPLETE = Completeness(complete=True)
