"""The MemoryTruth debuggee as the memory tests see it: its pid, its truth, a dump of it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class MemoryTarget:
    pid: int
    truth: dict[str, Any]
    dump: Path

    def collection(self, name: str) -> dict[str, Any]:
        found: dict[str, Any] = self.truth["collections"][name]
        return found


def expected_summary(want: dict[str, Any]) -> dict[str, Any]:
    """The contract's summary fields the debuggee computed for one collection."""
    expected = {key: want[key] for key in ("count", "elementType", "collectionType", "kind", "nullCount")}
    if "keyValuePairs" in want:
        expected.update(keyValuePairs=want["keyValuePairs"], firstElements=None, lastElements=None,
                        numericStats=None, typeDistribution=None)
    else:
        expected.update(firstElements=want["first"], lastElements=want["last"],
                        numericStats=want["numericStats"], typeDistribution=want["typeDistribution"],
                        keyValuePairs=None)
    expected["isSampled"] = False
    return expected
