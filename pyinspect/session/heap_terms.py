"""The heap engine's names a face may hold (types it annotates with, an address it parses,
a snapshot file it loads and diffs): the faces reach pyinspect.heap only through the session
layer, whose HeapWorkspace opens, flushes and builds what these name."""

from __future__ import annotations

from pathlib import Path

from pyinspect.heap.graph import HeapGraph, parse_address
from pyinspect.heap.reader import HeapReader, ProgressCallback
from pyinspect.heap.snapshot import Snapshot
from pyinspect.heap.snapshot import diff as diff_snapshots

__all__ = ["HeapGraph", "HeapReader", "ProgressCallback", "Snapshot", "diff_snapshots",
           "load_snapshot", "parse_address"]


def load_snapshot(path: str | Path) -> Snapshot:
    """A per-type snapshot file, or a whole graph file read as its snapshot (numpy loads
    only when one is read)."""
    from pyinspect.heap.graph_file import load_snapshot as load

    return load(path)
