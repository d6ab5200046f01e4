"""How a process sees the world: the one place that turns a target's own paths into paths
pyinspect can open.

A process in a container (Docker, a Kubernetes pod, ``unshare``) has its own pid namespace
(its pid inside is ``NSpid``'s last entry in /proc/PID/status, what its runtime names its
debugger pipes and diagnostics socket by), its own mount namespace (its files, its /tmp,
its runtime folder exist at its paths only through /proc/PID/root) and a container id
in /proc/PID/cgroup. Every path that comes from the target (libcoreclr.so in
/proc/PID/maps, the runtime folder, DBI, DAC, createdump, pipes, the diagnostics socket,
module and PDB paths, a dump the target writes) goes through :meth:`ProcessView.reach`.
A process in pyinspect's own mount namespace is reached at its paths unchanged.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from pyinspect.errors import ProcessNotFoundError

__all__ = ["ProcessView", "view_of"]

_CONTAINER_ID = re.compile(r"(?:^|[/:-])([0-9a-f]{64})(?:\.scope)?$")
_MAX_LINKS = 40


@dataclass(frozen=True)
class ProcessView:
    """One process as pyinspect reaches it."""

    pid: int
    """The pid in pyinspect's pid namespace (what ``ps`` on this side shows)."""
    namespace_pid: int
    """The pid the process has in its own (innermost) pid namespace."""
    root: str
    """Where pyinspect reaches the process's "/": "/" in the same mount namespace, else
    /proc/PID/root."""
    other_pid_namespace: bool
    other_mount_namespace: bool
    container_id: str | None
    temp_folder: str
    """The process's temp folder at its own path ($TMPDIR, else /tmp): where its runtime
    puts its debugger pipes and diagnostics socket."""

    @property
    def in_container(self) -> bool:
        return self.other_pid_namespace or self.other_mount_namespace

    def reach(self, path: str) -> str:
        """The path pyinspect opens for a path the process names (absolute, its view).
        Symbolic links inside are followed in the process's view, so an absolute link
        in a container image never lands on the host's file of that name."""
        if self.root == "/":
            return path
        return self.root + _resolve_inside(self.root, path)

    def inside(self, reached: str) -> str:
        """The process's own path for a path made by :meth:`reach`."""
        if self.root != "/" and reached.startswith(self.root + "/"):
            return reached[len(self.root):]
        return reached

    def reach_temp(self, name: str = "") -> str:
        """A file in the process's temp folder, as pyinspect opens it."""
        return self.reach(posixpath.join(self.temp_folder, name) if name else self.temp_folder)


def view_of(pid: int) -> ProcessView:
    """The view of a live process; ProcessNotFoundError when it does not exist or its
    /proc entries cannot be read (another user's process without root)."""
    status = _read_text(pid, "status")
    ns_pids = [int(p) for line in status.splitlines() if line.startswith("NSpid:") for p in line.split()[1:]]
    other_pid = _namespace(pid, "pid") != _namespace(os.getpid(), "pid")
    other_mount = _namespace(pid, "mnt") != _namespace(os.getpid(), "mnt")
    return ProcessView(
        pid=pid, namespace_pid=ns_pids[-1] if ns_pids else pid,
        root=f"/proc/{pid}/root" if other_mount else "/",
        other_pid_namespace=other_pid, other_mount_namespace=other_mount,
        container_id=_container_id(_read_text(pid, "cgroup", missing_ok=True)),
        temp_folder=_temp_folder(pid))


def _read_text(pid: int, name: str, missing_ok: bool = False) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text(errors="replace")
    except FileNotFoundError as exc:
        if missing_ok:
            return ""
        raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid) from exc
    except OSError as exc:
        if missing_ok:
            return ""
        raise ProcessNotFoundError(f"cannot read /proc/{pid}/{name}: {exc.strerror}", pid=pid) from exc


def _namespace(pid: int, kind: str) -> str | None:
    """The namespace's identity (``mnt:[4026531841]``), None when not readable."""
    try:
        return os.readlink(f"/proc/{pid}/ns/{kind}")
    except OSError:
        return None


def _container_id(cgroup: str) -> str | None:
    """The 64-hex id Docker, containerd and CRI-O put in the cgroup path, if any."""
    for line in cgroup.splitlines():
        path = line.split(":", 2)[-1].rstrip("/")
        for part in reversed(path.split("/")):
            match = _CONTAINER_ID.search(part)
            if match:
                return match.group(1)
    return None


def _temp_folder(pid: int) -> str:
    """$TMPDIR of the process (its environment at start), else /tmp, as the PAL chooses."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return "/tmp"
    for entry in environ.split(b"\0"):
        if entry.startswith(b"TMPDIR=") and len(entry) > 7:
            return entry[7:].decode(errors="replace").rstrip("/") or "/"
    return "/tmp"


def _resolve_inside(root: str, path: str) -> str:
    """``path`` with its symbolic links resolved against ``root`` (the process's "/"),
    as the process itself would; a missing part ends resolution (the rest is kept)."""
    parts = [p for p in posixpath.normpath("/" + path).split("/") if p]
    done: list[str] = []
    hops = 0
    while parts:
        part = parts.pop(0)
        if part == "..":
            if done:
                done.pop()
            continue
        here = root + "/" + "/".join([*done, part])
        try:
            target = os.readlink(here)
        except OSError:  # not a link, or missing
            done.append(part)
            continue
        hops += 1
        if hops > _MAX_LINKS:
            done.append(part)
            continue
        if target.startswith("/"):
            done = []
        parts = [p for p in target.split("/") if p and p != "."] + parts
    return "/" + "/".join(done)
