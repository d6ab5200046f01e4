"""Answers of the MCP heap tools: the heap graph's rows (the CLI's ``--json`` rows) inside
an envelope that says which heap was read, how fresh it is, what was left out, and whether
the heap was read whole (``completeness``: the segments a damaged dump's walk stopped in).

camelCase on the wire like the rows they carry; lists are bounded and say ``truncated``.
"""

from __future__ import annotations

from typing import Any, Literal

from pyinspect.models.completeness import Completeness
from pyinspect.models.heap_source import HeapSource
from pyinspect.models.heapgraph import (
    FinalizerStat,
    GenerationStat,
    GraphSummary,
    GraphTypeStat,
    Instance,
    RetainedObject,
    RetentionPaths,
    SegmentStat,
    TypeDelta,
)
from pyinspect.models.memory import ObjectInspectAnswer, ObjectInspection
from pyinspect.models.wire import WireModel

__all__ = [
    "DumpCreateAnswer", "DuplicateStringRow", "HeapCloseAnswer", "HeapDiffAnswer", "HeapFinalizerAnswer", "HeapInstancesAnswer", "HeapObjectAnswer", "HeapOpenAnswer",
    "HeapRetainedAnswer", "HeapRetentionAnswer", "HeapSegmentsAnswer", "HeapSnapshotAnswer",
    "HeapStatsAnswer", "HeapStringsAnswer",
]

class HeapOpenAnswer(WireModel):
    source: HeapSource
    message: str


class HeapCloseAnswer(WireModel):
    message: str


class DumpCreateAnswer(WireModel):
    path: str
    pid: int
    size_bytes: int
    message: str
    kept_beside: tuple[str, ...] = ()
    """The files kept beside the dump in ``<dump>.dac/``: the runtime's libmscordaccore.so,
    the libcoreclr.so that proves its build and the app's PDBs, where a dump's DAC and PDBs
    are looked for first."""


class HeapStatsAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    filter: Literal["live", "dead", "all"]
    types: tuple[GraphTypeStat, ...]
    total_types: int
    truncated: bool
    summary: GraphSummary


class HeapInstancesAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    type_name: str
    instances: tuple[Instance, ...]
    total: int
    start: int
    next_start: int | None = None
    truncated: bool


class HeapRetentionAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    retention: RetentionPaths


class HeapRetainedAnswer(WireModel):
    """Objects (given addresses or the top retainers), or per type when by_type."""

    source: HeapSource
    completeness: Completeness
    objects: tuple[RetainedObject, ...] | None = None
    types: tuple[GraphTypeStat, ...] | None = None
    truncated: bool


class DuplicateStringRow(WireModel):
    """A duplicated string value: its first 256 characters when ``valueTruncated``."""

    value: str
    value_truncated: bool
    count: int
    size: int
    wasted_bytes: int


class HeapStringsAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    strings: tuple[DuplicateStringRow, ...]
    wasted_bytes: int
    truncated: bool


class HeapSnapshotAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    snapshot_id: str
    snapshots: tuple[str, ...]
    summary: GraphSummary


class HeapDiffAnswer(WireModel):
    """Per type change from the snapshot `before` to `after`, each with the heap it was taken of."""

    before: str
    after: str
    before_source: HeapSource
    after_source: HeapSource
    completeness: Completeness
    changes: tuple[TypeDelta, ...]
    total_changes: int
    truncated: bool


class HeapSegmentsAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    generations: tuple[GenerationStat, ...]
    segments: tuple[SegmentStat, ...]
    total_segments: int
    truncated: bool


class HeapFinalizerAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    types: tuple[FinalizerStat, ...]
    ready: int
    truncated: bool


class HeapObjectAnswer(WireModel):
    """object_inspect's ``inspection`` of an address, in whichever heap is open."""

    source: HeapSource
    inspection: ObjectInspection

    def wire(self) -> dict[str, Any]:
        """The inspection exactly as object_inspect answers it (explicit nulls kept)."""
        return {"source": self.source.model_dump(mode="json", by_alias=True, exclude_none=True),
                "inspection": ObjectInspectAnswer(inspection=self.inspection).wire()["inspection"]}
