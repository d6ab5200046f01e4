"""Diagnosing a process or a dump by itself (the CLI and the notebook; the MCP tool reads
its client's heap workspace): a heap workspace opened on the target and closed here (the one
owner of readers and graphs, as for every heap question), a live process frozen while it is read. A process caught in the middle of a GC cannot be walked: it is released, left to
finish the GC, and read again (a busy program is caught there often). A window of the
process's GCs and allocations is recorded first when asked (record_seconds), while it runs."""

from __future__ import annotations

import time
from pathlib import Path

from pyinspect.errors import HeapReadError, InvalidParameterError
from pyinspect.heap.reader import ProgressCallback
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.diagnosis import Diagnosis, Thresholds
from pyinspect.models.trace import TraceAnswer
from pyinspect.session.diagnosis.ranking import GC_IN_PROGRESS, diagnose
from pyinspect.session.heap_workspace import HeapWorkspace
from pyinspect.tracing.recorder import start_recording

__all__ = ["MAX_RECORD_SECONDS", "check_record_seconds", "diagnose_dump", "diagnose_process", "record_window"]

GC_RETRIES = 10
MIN_RECORD_SECONDS, MAX_RECORD_SECONDS = 0.5, 60.0
_GC_PAUSE = 0.1


def check_record_seconds(seconds: float | None) -> None:
    """A face checks it before any work starts (a progress bar, an attach)."""
    if seconds is not None and not MIN_RECORD_SECONDS <= seconds <= MAX_RECORD_SECONDS:
        raise InvalidParameterError(f"record_seconds must be {MIN_RECORD_SECONDS:g}-{MAX_RECORD_SECONDS:g}, "
                                    f"got {seconds}", record_seconds=seconds)


def record_window(pid: int, seconds: float) -> TraceAnswer:
    """The process's GCs, allocations and counters over the next seconds (it keeps running)."""
    check_record_seconds(seconds)
    recorder = start_recording(pid, allocations=True, gc=True, max_seconds=seconds + 60)
    try:
        time.sleep(seconds)
    except BaseException:
        recorder.close()
        raise
    return recorder.stop()


def _run(heaps: HeapWorkspace, progress: ProgressCallback | None, from_dump: bool, thresholds: Thresholds | None,
         baseline: Snapshot | None, recording: TraceAnswer | None = None) -> Diagnosis:
    try:
        return diagnose(heaps.reader()[0], lambda: heaps.graph(progress)[0], from_dump=from_dump,
                        thresholds=thresholds, baseline=baseline, recording=recording)
    finally:
        heaps.close()  # a frozen process resumes now


def diagnose_dump(path: str | Path, thresholds: Thresholds | None = None,
                  progress: ProgressCallback | None = None, baseline: Snapshot | None = None) -> Diagnosis:
    heaps = HeapWorkspace()
    heaps.open_dump(path)
    return _run(heaps, progress, True, thresholds, baseline)


def diagnose_process(pid: int, thresholds: Thresholds | None = None, progress: ProgressCallback | None = None,
                     baseline: Snapshot | None = None, record_seconds: float | None = None) -> Diagnosis:
    """baseline: an earlier snapshot of the same process, for memory growth; record_seconds:
    record its GCs for that long first, for GC pressure."""
    recording = record_window(pid, record_seconds) if record_seconds is not None else None
    for attempt in range(GC_RETRIES):
        heaps = HeapWorkspace()
        try:
            heaps.attach(pid, suspend=True)
            return _run(heaps, progress, False, thresholds, baseline, recording)
        except HeapReadError as exc:
            if GC_IN_PROGRESS not in str(exc) or attempt == GC_RETRIES - 1:
                raise
            time.sleep(_GC_PAUSE)
    raise AssertionError("unreachable")
