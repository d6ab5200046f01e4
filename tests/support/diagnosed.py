"""A diagnose corpus case (support.ailments) started once: its truth, its diagnosis live (the
process frozen while read) and from a dump of it (the crash mode: the dump its runtime wrote as
it died)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pyinspect.heap.reader import HeapReader, create_dump
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.diagnosis import Diagnosis
from pyinspect.session.diagnosis import diagnose_dump, diagnose_process
from support.ailments import Ailing, crash_dump, running


@dataclass
class Diagnosed:
    ailing: Ailing
    answers: dict[str, Diagnosis] = field(default_factory=dict)
    wall: dict[str, float] = field(default_factory=dict)

    def timed(self, source: str, run: Callable[[], Diagnosis]) -> None:
        started = time.monotonic()
        self.answers[source] = run()
        self.wall[source] = round(time.monotonic() - started, 2)


GROWTH_SECONDS = 2.0
RECORD_SECONDS = 2.0
RECORDED = {"gc-pressure", "healthy-batch", "growth"}  # a recording of a running process: GCs, allocating code


def baseline_of(pid: int) -> Snapshot:
    """The live heap per type now (the process frozen while read), as `heap snapshot` saves it."""
    with HeapReader.attach(pid, suspend=True) as reader:
        return reader.graph().snapshot()


@contextmanager
def diagnosed(framework: str, mode: str, folder: Path) -> Iterator[tuple[Diagnosed, Path]]:
    """The case diagnosed live and from its dump; the dump is kept for the caller, then removed.
    The growth mode is compared with a baseline snapshot taken GROWTH_SECONDS before."""
    baseline = None
    if mode == "crash":
        ailing, dump = crash_dump(framework, folder)
        case = Diagnosed(ailing)
    else:
        dump = folder / f"{mode}.dmp"
        with running(framework, mode, folder) as ailing:
            case = Diagnosed(ailing)
            if mode == "growth":
                baseline = baseline_of(ailing.pid)
                time.sleep(GROWTH_SECONDS)
            seconds = RECORD_SECONDS if mode in RECORDED else None
            case.timed("live", lambda: diagnose_process(ailing.pid, baseline=baseline, record_seconds=seconds))
            create_dump(ailing.pid, dump)
    try:
        case.timed("dump", lambda: diagnose_dump(dump, baseline=baseline))
        yield case, dump
    finally:
        dump.unlink(missing_ok=True)
