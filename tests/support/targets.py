"""Finding and running the debuggee programs under tests/targets/.

build.py builds each tests/targets/<Name>/ into tests/targets/_build/<Name>/. A missing
build fails the test with a clear message: a missing component is never a skip.
Breakpoint lines are found by `// @bp name` markers in the source, never hard-coded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pyinspect.targets.runtime_files import remove_runtime_files

TARGETS_DIR = Path(__file__).resolve().parents[1] / "targets"
BUILD_DIR = TARGETS_DIR / "_build"


def target_dll(name: str) -> Path:
    dll = BUILD_DIR / name / f"{name}.dll"
    if not dll.exists():
        pytest.fail(f"debuggee {name} is not built ({dll}); run `python3 build.py`")
    return dll


def debuggee_command(name: str, framework: str, *args: str) -> list[str]:
    """How a user starts a debuggee: `dotnet Name.dll` on .NET 10, the self-contained apphost
    build.py publishes for .NET 8 and 9 (tests/targets/_build/Name-net8.0/Name)."""
    if framework == "net10.0":
        return ["dotnet", str(target_dll(name)), *args]
    apphost = BUILD_DIR / f"{name}-{framework}" / name
    if not apphost.is_file():
        pytest.fail(f"{name} for {framework} is not published ({apphost}); run `python3 build.py`")
    return [str(apphost), *args]


def target_source(name: str, file: str = "Program.cs") -> Path:
    return TARGETS_DIR / name / file


def marker_line(name: str, marker: str, file: str = "Program.cs") -> int:
    """1-based line of `// @bp <marker>` in a target's source file."""
    pattern = re.compile(rf"//\s*@bp\s+{re.escape(marker)}\b")
    for number, line in enumerate(target_source(name, file).read_text().splitlines(), 1):
        if pattern.search(line):
            return number
    raise AssertionError(f"marker @bp {marker} not found in {name}/{file}")


def wait_for_file(path: Path, timeout: float = 30.0, proc: subprocess.Popen[Any] | None = None) -> None:
    """Wait (bounded) until a debuggee has written `path`; fail early if it died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size > 0:
            return
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"debuggee exited with {proc.returncode} before writing {path}")
        time.sleep(0.05)
    raise AssertionError(f"debuggee did not write {path} within {timeout}s")


_READ_SYSCALL = "0"  # read(2) on x86_64, the only machine the debuggees are built for (linux-x64)


def wait_until_reading_input(pid: int, timeout: float = 30.0) -> None:
    """Wait (bounded) until the program's main thread is blocked reading its input (a
    Console.ReadLine loop): done with what it did before, so no allocation is under way. A
    stop or a dump taken mid-allocation shows zeroed memory where an object is about to be,
    and the heap's walk rightly says it stopped there."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            syscall = Path(f"/proc/{pid}/syscall").read_text().split(" ", 1)[0]
        except OSError as exc:
            raise AssertionError(f"process {pid} ended before reading its input") from exc
        if syscall == _READ_SYSCALL:
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} did not block reading its input within {timeout}s")


def read_truth(path: Path) -> Any:
    return json.loads(path.read_text())


def end_process(proc: subprocess.Popen[Any]) -> None:
    """Kill a program a test started (if it still runs), reap it, and remove the files its
    runtime could not: a killed runtime leaves its debugger pipes and diagnostics socket in
    the temp folder."""
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)
    remove_runtime_files(proc.pid, wait=0)


@contextmanager
def running_target(name: str, *args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """Start a debuggee with `dotnet <dll> args...`; always killed afterwards."""
    proc = subprocess.Popen(
        ["dotnet", str(target_dll(name)), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    try:
        yield proc
    finally:
        end_process(proc)


@contextmanager
def running_until_truth(command: list[str], truth_file: Path) -> Iterator[tuple[int, Any]]:
    """A program that writes its truth once its shape is built: its pid and truth then; killed after."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file(truth_file, timeout=90, proc=proc)
        yield proc.pid, read_truth(truth_file)
    finally:
        end_process(proc)


def crash_dump_of(command: list[str], folder: Path) -> tuple[int, Any, Path]:
    """Run a program's crash mode (its truth in folder/crash.json) until its runtime has written
    folder/crash.dmp and it has died: its pid, truth and dump."""
    truth_file, dump = folder / "crash.json", folder / "crash.dmp"
    pid = run_until_crash_dump(command, truth_file, dump)
    return pid, read_truth(truth_file), dump


def run_until_crash_dump(command: list[str], truth_file: Path, dump: Path) -> int:
    """Run a program that dies of an unhandled exception, its runtime asked for a full crash dump
    (DOTNET_DbgEnableMiniDump); wait until it has died and the dump is complete. Answers its pid."""
    env = {**os.environ, "DOTNET_DbgEnableMiniDump": "1", "DOTNET_DbgMiniDumpType": "4",
           "DOTNET_DbgMiniDumpName": str(dump)}
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        proc.wait(timeout=240)
    finally:
        end_process(proc)  # a runtime that died of its exception removed nothing either
    assert proc.returncode != 0, "the crashing program must die of its unhandled exception"
    assert truth_file.is_file() and dump.is_file(), f"no truth or no dump written ({truth_file}, {dump})"
    deadline, size = time.monotonic() + 30, -1  # the dump is complete once its size stops changing
    while dump.stat().st_size != size and time.monotonic() < deadline:
        size = dump.stat().st_size
        time.sleep(0.2)
    return proc.pid
