"""Diagnosis records (issue 42): what is wrong with a process or a dump, each finding with a
kind from a closed list (docs/diagnose.md), a severity, a one-line statement, its evidence,
a confidence and the tool calls that show more. Frozen, camelCase on the wire.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from pyinspect.models.heap_source import HeapSource
from pyinspect.models.heapgraph import RetentionPath
from pyinspect.models.wire import WireModel

__all__ = [
    "FINDING_KINDS", "SEVERITIES", "Confidence", "DiagnoseAnswer", "Diagnosis", "Evidence", "EvidenceFrame",
    "EvidenceObject", "EvidenceThread", "EvidenceType", "Finding", "FindingKind", "Severity", "Thresholds",
]

FindingKind = Literal["crash", "deadlock", "thread-pool-starvation", "finalizer-blocked", "async-never-completes",
                      "lock-convoy", "gc-pressure", "fragmentation", "memory-growth", "duplicate-strings", "wasted-capacity",
                      "retained-memory"]
FINDING_KINDS: tuple[str, ...] = FindingKind.__args__  # type: ignore[attr-defined]
"""The closed list, in the order findings of equal severity are ranked (the more specific
cause first: growth says what is being added, duplicated strings explain memory a retainer holds)."""

Severity = Literal["critical", "error", "warning", "info"]
SEVERITIES: tuple[str, ...] = Severity.__args__  # type: ignore[attr-defined]
Confidence = Literal["high", "medium", "low"]


class Thresholds(WireModel):
    """When a measured shape becomes a finding (settable on every face; docs/diagnose.md)."""

    model_config = ConfigDict(extra="forbid")  # settings are refused when misspelled, always

    convoy_waiters: int = Field(default=3, ge=1, description="waiters on one owned lock that make a convoy")
    starvation_blocked_share: float = Field(default=0.75, gt=0, le=1, description="share of the pool's worker "
                                            "threads blocked inside a work item")
    starvation_queued: int = Field(default=1, ge=1, description="queued work items behind the blocked pool threads")
    retained_bytes: int = Field(default=16 << 20, ge=1, description="bytes one owner must retain to be reported")
    retained_share: float = Field(default=0.25, gt=0, le=1, description="share of the live heap one owner must retain")
    growth_bytes: int = Field(default=4 << 20, ge=1, description="bytes the fastest growing type must add "
                              "since the baseline snapshot")
    gc_induced_per_second: float = Field(default=1.0, gt=0, description="collections induced by GC.Collect "
                                         "per second of a recording")
    gc_gen2_per_second: float = Field(default=1.0, gt=0, description="gen-2 collections (not induced) per second")
    gc_pause_share: float = Field(default=0.15, gt=0, le=1, description="share of the window paused in GC")
    duplicate_bytes: int = Field(default=8 << 20, ge=1, description="bytes wasted by duplicated strings to be reported")
    duplicate_share: float = Field(default=0.10, gt=0, le=1, description="share of the live heap the duplicates waste")
    fragmentation_bytes: int = Field(default=16 << 20, ge=1, description="free bytes in segments holding pinned "
                                     "objects to be reported")
    fragmentation_share: float = Field(default=0.5, gt=0, le=1, description="share of those segments that is free")
    capacity_bytes: int = Field(default=8 << 20, ge=1, description="bytes of unused collection capacity to be "
                                "reported")
    capacity_share: float = Field(default=0.10, gt=0, le=1, description="share of the live heap the unused "
                                  "collection capacity must be")


class EvidenceFrame(WireModel):
    method: str
    file: str | None = None
    line: int | None = None


class EvidenceThread(WireModel):
    """A thread of the finding, its ids and what it is blocked in; frames leaf first (managed only)."""

    os_thread_id: int
    managed_thread_id: int
    name: str | None = None
    role: str
    blocked_in: str | None = None
    waiting_for: str | None = None
    frames: tuple[EvidenceFrame, ...] = ()


class EvidenceObject(WireModel):
    address: str
    type: str
    role: str
    size: int | None = None
    retained_size: int | None = None


class EvidenceType(WireModel):
    type: str
    count: int
    size: int | None = None
    retained_size: int | None = None


class Evidence(WireModel):
    """What shows the finding: threads with their frames, objects with addresses, types with
    counts and sizes, methods with file and line, the retention path from a root."""

    threads: tuple[EvidenceThread, ...] = ()
    objects: tuple[EvidenceObject, ...] = ()
    types: tuple[EvidenceType, ...] = ()
    methods: tuple[EvidenceFrame, ...] = ()
    path: RetentionPath | None = None
    examples: tuple[str, ...] = ()
    measures: dict[str, float] = Field(default_factory=dict)


class Finding(WireModel):
    kind: FindingKind
    severity: Severity
    confidence: Confidence
    statement: str
    evidence: Evidence
    next_calls: tuple[str, ...] = ()


class Diagnosis(WireModel):
    """Findings ranked (severity, then kind order); ``checked`` the kinds examined,
    ``unchecked`` those that could not be (with why); ``seconds`` the whole diagnosis."""

    findings: tuple[Finding, ...]
    checked: tuple[str, ...]
    unchecked: dict[str, str] = Field(default_factory=dict)
    thresholds: Thresholds
    seconds: float


class DiagnoseAnswer(WireModel):
    source: HeapSource
    findings: tuple[Finding, ...]
    checked: tuple[str, ...]
    unchecked: dict[str, str]
    thresholds: Thresholds
    seconds: float
