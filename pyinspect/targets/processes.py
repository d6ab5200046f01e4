"""The machine's .NET processes and whether pyinspect can debug them and read their heap.

Below both faces (``pyinspect ps`` and the ``process_list`` MCP tool): a process is .NET
when a libcoreclr.so is mapped into it (/proc/PID/maps), so a program whose runtime has
not started yet is not listed. What pyinspect can do follows from the target's own
runtime folder (pyinspect/targets/runtimes.py): the DBI to debug, the DAC to read the heap,
reached through the process's own view (pyinspect/targets/process_view.py) when it runs in
a container; what pyinspect's privileges allow (pyinspect/targets/privileges.py) is said.
"""

from __future__ import annotations

import os
from pathlib import Path

from pyinspect.errors import PyInspectError
from pyinspect.models.runtimes import DotnetProcess, TargetRuntime
from pyinspect.targets.privileges import missing_for_namespaces, missing_for_ptrace
from pyinspect.targets.process_view import ProcessView, view_of
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
    try:
        view: ProcessView | None = view_of(pid)
    except PyInspectError:
        view = None
    ptrace = missing_for_ptrace(pid)
    if len(coreclrs) > 1 or view is None:
        why = (f"several .NET runtimes loaded ({', '.join(coreclrs)}): not supported" if view is not None
               else "; ".join(ptrace) or f"cannot read /proc/{pid}")
        return _row(pid, view, None, False, False, why)
    runtime = runtime_in_folder(Path(coreclrs[0]).parent, view)
    unreachable = _unreachable(runtime) if not ptrace else []
    namespaces = missing_for_namespaces() if view.other_mount_namespace else _pid_namespace_only(view)
    missing = unreachable or _missing_parts(runtime)
    can_read_heap = runtime.dac_path is not None and not ptrace and not unreachable
    can_debug = runtime.dbi_path is not None and not ptrace and not unreachable and not namespaces
    reasons = list(dict.fromkeys(missing + ptrace + namespaces))
    return _row(pid, view, runtime, can_debug, can_read_heap, "; ".join(reasons) or None)


def _row(pid: int, view: ProcessView | None, runtime: TargetRuntime | None, can_debug: bool, can_read_heap: bool,
         reason: str | None) -> DotnetProcess:
    return DotnetProcess(
        pid=pid, command_line=_command_line(pid), runtime=runtime, can_debug=can_debug, can_read_heap=can_read_heap,
        reason=reason, namespace_pid=view.namespace_pid if view else None,
        container_id=view.container_id if view else None, in_container=view.in_container if view else False)


def _missing_parts(runtime: TargetRuntime) -> list[str]:
    missing = []
    if runtime.dbi_path is None:
        missing.append(f"no libmscordbi.so (debugger library) in {runtime.folder}")
    if runtime.dac_path is None:
        missing.append(f"no libmscordaccore.so (DAC) in {runtime.folder}")
    return missing


def _pid_namespace_only(view: ProcessView) -> list[str]:
    """A process with its own pids but pyinspect's files (and so pyinspect's /proc) cannot be
    debugged: its DBI would look its pid inside up in a /proc that numbers pids otherwise."""
    if not view.other_pid_namespace or view.namespace_pid == view.pid:
        return []
    return [(f"the process has pid {view.namespace_pid} in its own pid namespace but shares pyinspect's mount "
            "namespace: debugging needs its own /proc (a container with both namespaces works)")]


def _unreachable(runtime: TargetRuntime) -> list[str]:
    """The runtime folder the process names must be there and readable for pyinspect."""
    try:
        os.listdir(runtime.folder)
    except OSError as exc:
        return [(f"the runtime folder {runtime.target_folder} of the process is not readable at "
                f"{runtime.folder}: {exc.strerror}")]
    if not (Path(runtime.folder) / "libcoreclr.so").is_file():
        return [(f"the runtime folder {runtime.target_folder} of the process has no libcoreclr.so at "
                f"{runtime.folder}: it was replaced or hidden after the process started")]
    return []


def _command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)
