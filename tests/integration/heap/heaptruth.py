"""The HeapTruth debuggee as the heap tests see it: its pid, its truth, a dump of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class TruthTarget:
    def __init__(self, pid: int, truth: dict[str, Any], dump: Path) -> None:
        self.pid = pid
        self.truth = truth
        self.dump = dump
