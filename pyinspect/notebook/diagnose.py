"""The notebook's diagnose: ``pyinspect.diagnose(pid | dump path | heap)`` and
``heap.diagnose()``, the findings as a DataFrame (one row per finding, ranked), the whole
answer (evidence, retention paths) in ``frame.attrs["diagnosis"]``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyinspect.errors import InvalidParameterError
from pyinspect.models.diagnosis import Diagnosis, Finding
from pyinspect.notebook.heap_graph import GraphMethods
from pyinspect.notebook.progress import walk_progress
from pyinspect.session.diagnosis import (
    check_record_seconds,
    diagnose_dump,
    diagnose_process,
    parse_thresholds,
)
from pyinspect.session.diagnosis import diagnose as run_rules
from pyinspect.session.heap_terms import Snapshot, load_snapshot

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["DiagnoseMethods", "diagnose"]

COLUMNS = ["severity", "kind", "confidence", "statement", "threads", "objects", "methods", "next_calls"]


def _row(finding: Finding) -> dict[str, Any]:
    evidence = finding.evidence
    return {"severity": finding.severity, "kind": finding.kind, "confidence": finding.confidence,
            "statement": finding.statement,
            "threads": [t.managed_thread_id for t in evidence.threads],
            "objects": [o.address for o in evidence.objects],
            "methods": [f"{m.method} {m.file}:{m.line}" if m.file else m.method for m in evidence.methods],
            "next_calls": list(finding.next_calls)}


def as_frame(answer: Diagnosis) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame([_row(f) for f in answer.findings], columns=COLUMNS)
    frame.attrs["diagnosis"] = answer
    return frame


class DiagnoseMethods(GraphMethods):
    """Mixed into pyinspect.Heap: the diagnosis over this heap, its graph built once and kept."""

    from_dump: bool = False

    def diagnose(self, thresholds: Mapping[str, float] | None = None, progress: bool = True,
                 baseline: Snapshot | str | Path | None = None) -> pd.DataFrame:
        """What is wrong with this heap: one row per finding, ranked (severity, kind,
        confidence, statement, threads, objects, methods, next_calls); the answer with its
        evidence in ``.attrs["diagnosis"]``. baseline: an earlier ``heap.snapshot()`` (or its
        file) for memory growth. Raises InvalidParameterError for a bad threshold.
        Example: ``heap.diagnose().query("severity != 'info'")``"""
        limits = parse_thresholds(thresholds)
        return as_frame(run_rules(self.heaps.reader()[0], lambda: self.graph(progress=progress), from_dump=self.from_dump,
                                  thresholds=limits, baseline=_snapshot(baseline)))


def _snapshot(baseline: Snapshot | str | Path | None) -> Snapshot | None:
    return load_snapshot(baseline) if isinstance(baseline, str | Path) else baseline


def diagnose(target: int | str | Path, thresholds: Mapping[str, float] | None = None,
             progress: bool = True, baseline: Snapshot | str | Path | None = None,
             record_seconds: float | None = None) -> pd.DataFrame:
    """Diagnose a live process (pid: frozen while it is read, then released) or a core dump
    (path): the findings as a DataFrame (see ``Heap.diagnose``); baseline: an earlier snapshot
    of the same process (``heap.snapshot()`` or its file) for memory growth; record_seconds: a
    live process's GCs recorded for that long first, for GC pressure. Raises ProcessNotFoundError,
    DumpError, InvalidParameterError. Example: ``pyinspect.diagnose("core.1234").head()``"""
    limits = parse_thresholds(thresholds)
    if isinstance(target, bool) or not isinstance(target, int | str | Path):
        raise InvalidParameterError(f"diagnose takes a pid or a dump path, got {type(target).__name__}")
    if record_seconds is not None and not isinstance(target, int):
        raise InvalidParameterError("record_seconds goes with a pid: a dump has no GCs to record")
    check_record_seconds(record_seconds)
    with walk_progress(progress) as advance:
        before = _snapshot(baseline)
        found = diagnose_process(target, limits, advance, before, record_seconds) if isinstance(target, int) \
            else diagnose_dump(target, limits, advance, before)
    return as_frame(found)
