"""The diagnose corpus (tests/targets/Ailments): one program, one pathology per mode, each
writing its own truth (the kind diagnose must name first, the threads, types, methods and
root that make it). A mode is started once and read live (frozen while read) and from a
dump of it (createdump; a crash's dump is the one its runtime writes as it dies)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.targets import crash_dump_of, debuggee_command, running_until_truth


def command(framework: str, *args: str) -> list[str]:
    return debuggee_command("Ailments", framework, *args)


@dataclass(frozen=True)
class Ailing:
    framework: str
    mode: str
    pid: int
    truth: dict[str, Any]

    def thread(self, name: str) -> dict[str, Any]:
        return next(t for t in self.truth["threads"] if t["name"] == name)

    def os_ids(self, prefix: str) -> set[int]:
        return {t["osThreadId"] for t in self.truth["threads"] if t["name"].startswith(prefix)}


@contextmanager
def running(framework: str, mode: str, folder: Path) -> Iterator[Ailing]:
    """The mode's process, once it has built its shape and written its truth; killed after."""
    truth_file = folder / f"{mode}.json"
    with running_until_truth(command(framework, mode, str(truth_file)), truth_file) as (pid, truth):
        yield Ailing(framework, mode, pid, truth)


def crash_dump(framework: str, folder: Path) -> tuple[Ailing, Path]:
    """Run the crash mode until its runtime has written the dump and it has died."""
    pid, truth, dump = crash_dump_of(command(framework, "crash", str(folder / "crash.json")), folder)
    return Ailing(framework, "crash", pid, truth), dump


@contextmanager
def starved_with_dump(folder: Path) -> Iterator[tuple[Ailing, Path]]:
    """The starvation mode on .NET 10, running, and a dump of it (the faces' one sick program)."""
    from pyinspect.heap.reader import create_dump

    with running("net10.0", "starvation", folder) as ailing:
        dump = create_dump(ailing.pid, folder / "starved.dmp")
        try:
            yield ailing, dump
        finally:
            dump.unlink(missing_ok=True)
