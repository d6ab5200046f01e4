"""Opening a target in the process that loaded the heap helper: a live process in this
one, a dump in the dump reader's child (heap.dump_child). HeapReader's ``attach`` and
``open_dump`` check what they can first; their keyword arguments arrive here unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyinspect.targets.dac_sources import dac_sources_json

__all__ = ["attach", "open_dump"]


def attach(helper: Any, pid: int, suspend: bool, dac: str) -> Any:
    """The helper's HeapTarget of a live process, read with its own runtime's DAC."""
    return helper.HeapTarget.Attach(pid, suspend, dac)


def open_dump(helper: Any, path: str, *, dac: str | Path | None = None, dac_search_path: str | None = None,
              offline: bool | None = None) -> Any:
    """The helper's HeapTarget of a dump, with the first DAC that matches in the places
    pyinspect/targets/dac_sources.py lists (``dac`` alone when given)."""
    sources = dac_sources_json(Path(path), dac=dac, search_path=dac_search_path, offline=offline)
    return helper.HeapTarget.OpenDump(path, sources)
