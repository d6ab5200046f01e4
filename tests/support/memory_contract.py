"""What collection_analyze must answer for one collection, from the truth MemoryTruth
computed of itself: shared by the memory tests and the runtime matrix."""

from __future__ import annotations

from typing import Any


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
