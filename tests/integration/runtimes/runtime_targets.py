"""The runtime matrix's debuggees: MemoryTruth for .NET 8 and 9 published self-contained
(tests/targets/_build/MemoryTruth-net8.0/, -net9.0/, by build.py) and for .NET 10
framework-dependent (tests/targets/_build/MemoryTruth/), each started as a user would."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support.targets import BUILD_DIR, target_dll

RUNTIMES = ["net8.0", "net9.0", "net10.0"]
VERSION_PREFIX = {"net8.0": "8.0.", "net9.0": "9.0.", "net10.0": "10.0."}


def published(framework: str) -> Path:
    """The folder of the MemoryTruth build for one runtime."""
    if framework == "net10.0":
        return target_dll("MemoryTruth").parent
    folder = BUILD_DIR / f"MemoryTruth-{framework}"
    if not (folder / "MemoryTruth").is_file():
        pytest.fail(f"MemoryTruth for {framework} is not published ({folder}); run `python3 build.py`")
    return folder


def command(framework: str, *args: str) -> list[str]:
    """How a user starts it: the self-contained apphost, or `dotnet app.dll` on .NET 10."""
    folder = published(framework)
    if framework == "net10.0":
        return ["dotnet", str(folder / "MemoryTruth.dll"), *args]
    return [str(folder / "MemoryTruth"), *args]


@dataclass(frozen=True)
class RuntimeTarget:
    framework: str
    pid: int
    truth: dict[str, Any]
    dump: Path

    @property
    def self_contained(self) -> bool:
        return self.framework != "net10.0"
