"""Snapshots saved to a file, and the diff of two: the way to find what grew.

A snapshot file holds the live heap per type (count, size, retained size) and the
graph's summary, as JSON; the whole graph goes to its own file (pyinspect.heap.graph_file),
whose per-type snapshot diffs the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pyinspect.errors import InvalidParameterError
from pyinspect.models.completeness import Completeness
from pyinspect.models.heapgraph import GraphSummary, GraphTypeStat, TypeDelta

__all__ = ["Snapshot", "diff", "summary_completeness"]

_FORMAT = "pyinspect-heap-snapshot/1"


@dataclass(frozen=True)
class Snapshot:
    """The live heap per type at one moment, and whether it was read whole."""

    description: str
    types: tuple[GraphTypeStat, ...]
    summary: GraphSummary
    completeness: Completeness

    def save(self, path: str | Path) -> Path:
        out = Path(path)
        data = {
            "format": _FORMAT,
            "description": self.description,
            "summary": self.summary.model_dump(by_alias=True),
            "types": [t.model_dump(by_alias=True) for t in self.types],
            "completeness": self.completeness.model_dump(by_alias=True),
        }
        out.write_text(json.dumps(data))
        return out

    @classmethod
    def load(cls, path: str | Path) -> Snapshot:
        source = Path(path)
        try:
            data = json.loads(source.read_text())
            if data.get("format") != _FORMAT:
                raise ValueError(f"format is {data.get('format')!r}, expected {_FORMAT}")
            summary = GraphSummary.model_validate(data["summary"])
            return cls(str(data["description"]), tuple(GraphTypeStat.model_validate(t) for t in data["types"]),
                       summary, _completeness(data.get("completeness"), summary))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InvalidParameterError(f"not a pyinspect heap snapshot: {source}: {exc}", path=str(source)) from exc


def _completeness(saved: object, summary: GraphSummary) -> Completeness:
    """A file's completeness; a file written before it was saved says only what its summary
    knows (segments stopped in and threads unread, without their ranges)."""
    if saved is not None:
        return Completeness.model_validate(saved)
    return summary_completeness(summary)


def summary_completeness(summary: GraphSummary) -> Completeness:
    """What a summary alone says of completeness: counts, no ranges."""
    notes = []
    if summary.unreadable_objects:
        notes.append(f"the walk stopped in {summary.unreadable_objects} segment(s) (ranges not recorded)")
    if summary.skipped_threads:
        notes.append(f"the stacks of {summary.skipped_threads} thread(s) were not read (not recorded which)")
    return Completeness(complete=not notes and not summary.unresolved_references,
                        unresolved_references=summary.unresolved_references, notes=tuple(notes))


def diff(a: Snapshot, b: Snapshot) -> list[TypeDelta]:
    """Per type change from a to b in count, size and retained size; largest growth first."""
    before = {t.type: t for t in a.types}
    after = {t.type: t for t in b.types}
    rows = []
    for name in before.keys() | after.keys():
        old, new = before.get(name), after.get(name)
        rows.append(TypeDelta(
            type=name,
            count_delta=(new.count if new else 0) - (old.count if old else 0),
            size_delta=(new.total_size if new else 0) - (old.total_size if old else 0),
            retained_delta=(new.retained_size if new else 0) - (old.retained_size if old else 0),
        ))
    rows = [r for r in rows if r.count_delta or r.size_delta or r.retained_delta]
    rows.sort(key=lambda r: (-r.size_delta, -r.count_delta, r.type))
    return rows
