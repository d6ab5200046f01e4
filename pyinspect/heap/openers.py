"""Opening a target in the process that loaded the heap helper: a live process in this
one, a dump in the dump reader's child (heap.dump_child). HeapReader's ``attach`` and
``open_dump`` check what they can first; their keyword arguments arrive here unchanged."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pyinspect.targets.runtimes import dump_dac_candidates

__all__ = ["attach", "open_dump"]


def attach(helper: Any, pid: int, suspend: bool, dac: str) -> Any:
    """The helper's HeapTarget of a live process, read with its own runtime's DAC."""
    return helper.HeapTarget.Attach(pid, suspend, dac)


def open_dump(helper: Any, path: str, *, dac: str | Path | None = None, dac_search_path: str | None = None) -> Any:
    """The helper's HeapTarget of a dump: ``dac`` alone when given (refused if it does not
    match), else the one the dump records, installed runtimes' and those under
    ``dac_search_path`` (default $PYINSPECT_DAC_SEARCH_PATH)."""
    explicit = dac is not None
    candidates = [os.path.abspath(Path(dac).expanduser())] if dac is not None else dump_dac_candidates(dac_search_path)
    return helper.HeapTarget.OpenDump(path, _string_array(candidates), explicit)


def _string_array(items: list[str]) -> Any:
    """A .NET string[] for the helper (pythonnet does not convert a list by itself)."""
    from System import Array, String  # loaded by dotnet_bridge.helper()

    return Array[String](items)
