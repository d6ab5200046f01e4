"""The debuggee as an operating-system process: finding a launched one's pid, making
sure a terminated one is gone. psutil loads on first use: the MCP server's first
answer should not wait for it."""

from __future__ import annotations

import os
import time

from pyinspect.targets.runtime_files import remove_runtime_files

__all__ = ["ensure_dead", "find_launched_pid"]


def find_launched_pid(adapter_pid: int, program: str) -> int | None:
    """The launched debuggee's pid when the adapter sent no `process` event: the adapter's
    deepest descendant naming the program (a shell that waits for it names it too)."""
    import psutil

    try:
        children = psutil.Process(adapter_pid).children(recursive=True)
    except psutil.Error:
        return None
    name = os.path.basename(program)
    for child in reversed(children):
        try:
            if any(name in part for part in child.cmdline()):
                return child.pid
        except psutil.Error:
            continue
    return None


def ensure_dead(pid: int, timeout: float = 5.0) -> None:
    """After a terminating disconnect: the debuggee must be gone; kill it if it lingers. Its
    runtime's files go with it (a killed runtime cannot remove its own)."""
    if not _gone_within(pid, timeout):
        import psutil

        try:
            psutil.Process(pid).kill()
        except psutil.Error:
            pass
    remove_runtime_files(pid)


def _gone_within(pid: int, timeout: float) -> bool:
    import psutil

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False
