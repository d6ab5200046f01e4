"""The heap graph's narrow arrays: type numbers kept in 2 bytes are widened, exactly, when a
heap has 65,535 types or more (in memory and in a work folder's files)."""

from __future__ import annotations

import json
from pathlib import Path

from pyinspect.heap import dotnet_bridge


def test_type_numbers_widen_past_65535_types(tmp_path: Path) -> None:
    answers = json.loads(str(dotnet_bridge.helper().GraphCheck.TypeNumbersWiden(str(tmp_path))))
    expected = [0, 7, 65534, 0, 7, 65534, 65535, 1 << 20]
    assert answers == [expected, expected]
    assert list(tmp_path.iterdir()) == []
