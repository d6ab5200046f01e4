"""What pyinspect knows about a target's .NET runtime and the machine's .NET processes:
frozen models with camelCase wire names (``pyinspect ps`` and the ``process_list`` tool)."""

from __future__ import annotations

from pyinspect.models.wire import WireModel

__all__ = ["DotnetProcess", "ProcessListAnswer", "TargetRuntime"]


class TargetRuntime(WireModel):
    """The runtime one process runs on: the folder of its libcoreclr.so holds the debugging
    libraries of exactly that build (DBI, DAC, createdump); a path is None when missing."""

    folder: str
    """The runtime folder as pyinspect opens it (through /proc/PID/root for a process in
    another mount namespace)."""
    target_folder: str = ""
    """The same folder as the process itself names it (its /proc/PID/maps path)."""
    version: str
    """Product version (``8.0.31``): the shared runtime's folder name, or the version a
    self-contained app's runtimeconfig.json records; else the build below."""
    build: str
    """libcoreclr.so's own version stamp (file version and commit), what a DAC must match."""
    self_contained: bool
    dbi_path: str | None = None
    dac_path: str | None = None
    createdump_path: str | None = None


class DotnetProcess(WireModel):
    """One process with a .NET runtime loaded, and whether pyinspect can work with it."""

    pid: int
    """The pid in pyinspect's pid namespace: what every pyinspect command takes."""
    namespace_pid: int | None = None
    """The pid inside the process's own pid namespace (equal to pid outside a container)."""
    container_id: str | None = None
    """The container id /proc/PID/cgroup names (Docker, containerd, CRI-O), if any."""
    in_container: bool = False
    """True when the process has another pid or mount namespace than pyinspect."""
    command_line: str
    runtime: TargetRuntime | None = None
    """None when the process has several runtimes loaded (not supported)."""
    can_debug: bool
    can_read_heap: bool
    reason: str | None = None
    """Why not, when either answer is False."""


class ProcessListAnswer(WireModel):
    """process_list's answer: every .NET process found, by pid."""

    success: bool = True
    processes: list[DotnetProcess]
