"""The machine's .NET processes and whether pyinspect can debug them and read their heap.

Below both faces (``pyinspect ps`` and the ``process_list`` MCP tool): a process is .NET
when a libcoreclr.so is mapped into it (/proc/PID/maps), so a program whose runtime has
not started yet is not listed. What pyinspect can do follows from the target's own
runtime folder (pyinspect/targets/runtimes.py): the DBI to debug, the DAC to read the heap.
"""

from __future__ import annotations

import os
from pathlib import Path

from pyinspect.errors import PyInspectError
from pyinspect.models.runtimes import DotnetProcess, TargetRuntime
from pyinspect.targets.runtimes import coreclr_paths, runtime_in_folder

__all__ = ["list_dotnet_processes"]


def list_dotnet_processes() -> list[DotnetProcess]:
    """Every readable process with a .NET runtime loaded, by pid (pyinspect's own excluded:
    its heap helper hosts a runtime of its own)."""
    found: list[DotnetProcess] = []
    own = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == own:
            continue
        try:
            paths = coreclr_paths(int(entry.name))
        except PyInspectError:
            continue  # ended meanwhile, or not ours to read
        if paths:
            found.append(_describe(int(entry.name), paths))
    return sorted(found, key=lambda p: p.pid)


def _describe(pid: int, coreclrs: list[str]) -> DotnetProcess:
    command_line = _command_line(pid)
    if len(coreclrs) > 1:
        return DotnetProcess(pid=pid, command_line=command_line, runtime=None, can_debug=False,
                             can_read_heap=False,
                             reason=f"several .NET runtimes loaded ({', '.join(coreclrs)}): not supported")
    runtime = runtime_in_folder(Path(coreclrs[0]).parent)
    reasons = _missing_parts(runtime) + _permission_problem(pid)
    can_debug = runtime.dbi_path is not None and not _permission_problem(pid)
    can_read_heap = runtime.dac_path is not None and not _permission_problem(pid)
    return DotnetProcess(pid=pid, command_line=command_line, runtime=runtime, can_debug=can_debug,
                         can_read_heap=can_read_heap, reason="; ".join(reasons) or None)


def _missing_parts(runtime: TargetRuntime) -> list[str]:
    missing = []
    if runtime.dbi_path is None:
        missing.append(f"no libmscordbi.so (debugger library) in {runtime.folder}")
    if runtime.dac_path is None:
        missing.append(f"no libmscordaccore.so (DAC) in {runtime.folder}")
    return missing


def _permission_problem(pid: int) -> list[str]:
    """Debugging and heap reads both need ptrace: the same user, or root."""
    if os.geteuid() == 0:
        return []
    try:
        owner = Path(f"/proc/{pid}").stat().st_uid
    except OSError:
        return ["the process ended"]
    return [] if owner == os.geteuid() else [f"owned by uid {owner}: run pyinspect as that user or root"]


def _command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)
