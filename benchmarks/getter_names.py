"""Property and field names of a target's types, from benchmarks/GetterNames: a separate
process that loads the assembly files the target has mapped and lists them by reflection,
so finding the corpus runs none of the target's code. Built on first use."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pyinspect.targets.dotnet_paths import dotnet_host

HELPER = Path(__file__).resolve().parent / "GetterNames"


def build_helper() -> Path:
    out = HELPER / "bin" / "Release"
    subprocess.run([str(dotnet_host()), "build", str(HELPER), "-c", "Release", "-nologo", "-v", "q", "-o", str(out)],
                   check=True, capture_output=True, timeout=600)
    return out / "GetterNames.dll"


def mapped_assemblies(pid: int) -> list[str]:
    """The .dll files the process has mapped, in the order they appear in its maps."""
    paths: dict[str, None] = {}
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and parts[5].endswith(".dll"):
            paths.setdefault(parts[5], None)
    return list(paths)


class GetterNames:
    """One helper process per target; `describe` asks it about one type (answers cached)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._process = process
        self._known: dict[str, dict[str, Any]] = {}

    @classmethod
    @contextmanager
    def for_process(cls, pid: int) -> Iterator[GetterNames]:
        helper = build_helper()
        process = subprocess.Popen([str(dotnet_host()), str(helper), *mapped_assemblies(pid)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            yield cls(process)
        finally:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)

    def describe(self, type_name: str) -> dict[str, Any]:
        """{"found", "properties", "fields"} of a type named as Type.FullName spells it without type arguments."""
        if type_name not in self._known:
            assert self._process.stdin is not None and self._process.stdout is not None
            self._process.stdin.write(type_name + "\n")
            self._process.stdin.flush()
            line = self._process.stdout.readline()
            if not line:
                raise RuntimeError(f"GetterNames exited (status {self._process.poll()}) while asked about {type_name}")
            self._known[type_name] = json.loads(line)
        return self._known[type_name]
