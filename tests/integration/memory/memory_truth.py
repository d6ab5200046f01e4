"""The MemoryTruth debuggee as the memory tests see it: its pid, its truth, a dump of it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.memory_contract import expected_summary

__all__ = ["MemoryTarget", "expected_summary"]


@dataclass(frozen=True)
class MemoryTarget:
    pid: int
    truth: dict[str, Any]
    dump: Path

    def collection(self, name: str) -> dict[str, Any]:
        found: dict[str, Any] = self.truth["collections"][name]
        return found
