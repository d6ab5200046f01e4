"""The files a .NET runtime keeps in its temp folder for the tools that talk to it: the
diagnostics socket (``dotnet-diagnostic-<pid>-<key>-socket``) and the debugger's pipes
(``clr-debug-pipe-<pid>-<key>-in``/``-out``), the key being the process's start time
(field 22 of /proc/<pid>/stat). A runtime unlinks them as it exits; one killed (SIGKILL,
the way a debugger ends a process stopped at a breakpoint) cannot, so whoever killed it
removes them once it is gone: a debugger leaves no litter on the host.

Only the files of a process that is gone are removed: a live process with that pid and
start time (a zombie counts as gone: its runtime ended) keeps its own, unless it removes them
itself as it leaves without its runtime's shutdown (os._exit: a one-shot command).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

__all__ = ["remove_own_runtime_files", "remove_runtime_files", "remove_runtime_files_of_ended", "runtime_temp_folder"]

_NAME = re.compile(r"(?:dotnet-diagnostic-(\d+)-(\d+)-socket|clr-debug-pipe-(\d+)-(\d+)-(?:in|out))")


def runtime_temp_folder(environment: dict[str, str] | None = None) -> Path:
    """Where a runtime started with this environment (default: ours) keeps them: $TMPDIR, else /tmp."""
    value = (environment if environment is not None else os.environ).get("TMPDIR")
    return Path(value) if value else Path("/tmp")


def _running_since(pid: int) -> int | None:
    """The start time (clock ticks after boot) of the running process pid, None when it is gone
    or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return None if fields[0] in ("Z", "X") else int(fields[19])


def _remove(folder: Path, names: list[str], since: float | None) -> int:
    removed = 0
    for name in names:
        match = _NAME.fullmatch(name)
        if match is None:
            continue
        pid, key = (int(v) for v in (match[1] or match[3], match[2] or match[4]))
        if _running_since(pid) == key:
            continue
        path = folder / name
        try:
            if since is None or path.lstat().st_mtime >= since:
                path.unlink()
                removed += 1
        except FileNotFoundError:
            pass
    return removed


def _names_of(pid: int, folder: Path) -> list[str]:
    prefixes = (f"dotnet-diagnostic-{pid}-", f"clr-debug-pipe-{pid}-")
    try:
        return [n for n in os.listdir(folder) if n.startswith(prefixes) and _NAME.fullmatch(n)]
    except OSError:
        return []


def remove_own_runtime_files() -> None:
    """This process's own runtime's files (the heap helper's CoreCLR, loaded through pythonnet):
    for a process about to leave without the runtime's shutdown (os._exit), which would have
    removed them."""
    folder = runtime_temp_folder()
    for name in _names_of(os.getpid(), folder):
        (folder / name).unlink(missing_ok=True)


def remove_runtime_files(pid: int, folder: Path | None = None, wait: float = 2.0) -> int:
    """Remove the runtime files of pid, a process this caller ended, once it is gone (waiting
    at most wait seconds for it to go); answers how many were removed."""
    where = folder or runtime_temp_folder()
    deadline = time.monotonic() + wait
    while _running_since(pid) is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    return _remove(where, _names_of(pid, where), None)


def remove_runtime_files_of_ended(folder: Path | None = None, since: float | None = None) -> int:
    """Remove every runtime file in folder whose process is gone, created (modified) at or after
    since (a time.time()); answers how many were removed."""
    where = folder or runtime_temp_folder()
    try:
        names = os.listdir(where)
    except OSError:
        return 0
    return _remove(where, names, since)
