"""HangShape (tests/targets/HangShape/) for one runtime: a hung process read live, and a
crashed one's dump written by its own runtime (DOTNET_DbgEnableMiniDump, full). Both build
the same hang; the crashed one then dies of an unhandled exception on thread "crasher"."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support.targets import BUILD_DIR, read_truth, run_until_crash_dump, target_dll, wait_for_file

RUNTIMES = ["net10.0", "net9.0", "net8.0"]


def command(framework: str, *args: str) -> list[str]:
    """How a user starts it: `dotnet HangShape.dll` on .NET 10, the self-contained apphost on 8 and 9."""
    if framework == "net10.0":
        return ["dotnet", str(target_dll("HangShape")), *args]
    apphost = BUILD_DIR / f"HangShape-{framework}" / "HangShape"
    if not apphost.is_file():
        pytest.fail(f"HangShape for {framework} is not published ({apphost}); run `python3 build.py`")
    return [str(apphost), *args]


@dataclass(frozen=True)
class Hang:
    framework: str
    pid: int
    truth: dict[str, Any]

    def thread(self, name: str) -> dict[str, Any]:
        return next(t for t in self.truth["threads"] if t["name"] == name)


@contextmanager
def hung(framework: str, folder: Path) -> Iterator[Hang]:
    truth_file = folder / "hang.json"
    proc = subprocess.Popen(command(framework, str(truth_file)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file(truth_file, timeout=90, proc=proc)
        yield Hang(framework, proc.pid, read_truth(truth_file))
    finally:
        proc.kill()
        proc.wait(timeout=10)


def crash_dump(framework: str, folder: Path) -> tuple[Hang, Path]:
    """Run HangShape in crash mode until its runtime has written the dump and it has died."""
    truth_file, dump = folder / "crash.json", folder / "crash.dmp"
    pid = run_until_crash_dump(command(framework, "crash", str(truth_file)), truth_file, dump)
    return Hang(framework, pid, read_truth(truth_file)), dump
