"""Diagnosing a process or a dump by itself (the CLI and the notebook; the MCP tool reads
through its heap workspace): the reader opened and closed here, a live process frozen while
it is read. A process caught in the middle of a GC cannot be walked: it is released, left to
finish the GC, and read again (a busy program is caught there often)."""

from __future__ import annotations

import time
from pathlib import Path

from pyinspect.answers.diagnosis.ranking import diagnose
from pyinspect.errors import HeapReadError
from pyinspect.heap.graph import HeapGraph
from pyinspect.heap.reader import HeapReader, ProgressCallback
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.diagnosis import Diagnosis, Thresholds

__all__ = ["diagnose_dump", "diagnose_process"]

GC_RETRIES = 10
_GC_PAUSE = 0.1


def _run(reader: HeapReader, progress: ProgressCallback | None, from_dump: bool,
         thresholds: Thresholds | None, baseline: Snapshot | None) -> Diagnosis:
    def build() -> HeapGraph:
        return reader.graph(progress)

    try:
        return diagnose(reader, build, from_dump=from_dump, thresholds=thresholds, baseline=baseline)
    finally:
        reader.close()  # a frozen process resumes now


def diagnose_dump(path: str | Path, thresholds: Thresholds | None = None,
                  progress: ProgressCallback | None = None, baseline: Snapshot | None = None) -> Diagnosis:
    return _run(HeapReader.open_dump(path), progress, True, thresholds, baseline)


def diagnose_process(pid: int, thresholds: Thresholds | None = None,
                     progress: ProgressCallback | None = None, baseline: Snapshot | None = None) -> Diagnosis:
    """baseline: an earlier snapshot of the same process, for memory growth."""
    for attempt in range(GC_RETRIES):
        try:
            return _run(HeapReader.attach(pid, suspend=True), progress, False, thresholds, baseline)
        except HeapReadError as exc:
            if "GC is in progress" not in str(exc) or attempt == GC_RETRIES - 1:
                raise
            time.sleep(_GC_PAUSE)
    raise AssertionError("unreachable")
