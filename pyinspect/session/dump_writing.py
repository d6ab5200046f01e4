"""A dump written together with its runtime's DAC: what `pyinspect heap dump`, the MCP
``dump_create`` tool and ``pyinspect.create_dump`` share. The DAC, the libcoreclr.so that
proves its build and the app's PDBs are copied into ``<dump>.dac/``
(pyinspect/targets/dac_sources.py), the first place a dump's DAC and PDBs are looked for,
so a dump carried to another machine with that folder opens there, with file and line,
with no flag and no download."""

from __future__ import annotations

from pathlib import Path

from pyinspect.heap.reader import create_dump
from pyinspect.models.heap_answers import DumpCreateAnswer
from pyinspect.targets.dac_sources import keep_runtime_beside
from pyinspect.targets.runtimes import runtime_of

__all__ = ["write_dump"]


def write_dump(pid: int, path: Path) -> DumpCreateAnswer:
    """Dump ``pid`` to ``path`` with its runtime's createdump and keep its DAC beside it."""
    runtime = runtime_of(pid)  # before the dump: the process may end once it is written
    made = create_dump(pid, path)
    kept = keep_runtime_beside(made, runtime, pid)
    beside = f"; its runtime's DAC is kept beside it in {Path(kept[0]).parent}/ (copy that folder with the dump)" \
        if kept else "; no DAC was kept beside it (the runtime has none, or the folder could not be written)"
    return DumpCreateAnswer(path=str(made), pid=pid, size_bytes=made.stat().st_size, kept_beside=tuple(kept),
                            message=f"wrote a full-heap dump of process {pid}{beside}; dump_open reads it")
