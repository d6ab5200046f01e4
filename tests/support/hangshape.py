"""HangShape (tests/targets/HangShape/) for one runtime: a hung process read live, and a
crashed one's dump written by its own runtime (DOTNET_DbgEnableMiniDump, full). Both build
the same hang; the crashed one then dies of an unhandled exception on thread "crasher"."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.targets import crash_dump_of, debuggee_command, running_until_truth

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
    with running_until_truth(command(framework, str(truth_file)), truth_file) as (pid, truth):
        yield Hang(framework, pid, truth)


def crash_dump(framework: str, folder: Path) -> tuple[Hang, Path]:
    """Run HangShape in crash mode until its runtime has written the dump and it has died."""
    pid, truth, dump = crash_dump_of(command(framework, "crash", str(folder / "crash.json")), folder)
    return Hang(framework, pid, truth), dump
