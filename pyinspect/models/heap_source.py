"""Which heap an answer was read from: every heap and triage answer carries one. Its own
module so that the triage answers (pyinspect.models.triage) load without the heap graph's
models (pyinspect.models.heap_answers)."""

from __future__ import annotations

from typing import Literal

from pyinspect.models.wire import WireModel

__all__ = ["HeapSource", "SourceKind"]

SourceKind = Literal["debug_session", "process", "dump"]


class HeapSource(WireModel):
    """Which heap an answer was read from, and whether it may have changed since."""

    kind: SourceKind
    description: str
    pid: int | None = None
    path: str | None = None
    snapshot_age_seconds: float
    may_have_changed: bool
    warning: str | None = None
