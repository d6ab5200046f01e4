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

from support.targets import debuggee_command, read_truth, run_until_crash_dump, wait_for_file

RUNTIMES = ["net10.0", "net9.0", "net8.0"]


def command(framework: str, *args: str) -> list[str]:
    return debuggee_command("HangShape", framework, *args)


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
