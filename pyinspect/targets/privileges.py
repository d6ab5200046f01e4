"""What pyinspect may do to another process, from its own effective capabilities.

Reading a process's memory, its /proc/PID/root and its /proc/PID/mem needs ptrace access:
the same user (and a ptrace scope that allows it), or CAP_SYS_PTRACE (root has it unless a
container engine dropped it). Debugging a process in another mount namespace enters that
namespace from the debugger thread, which needs CAP_SYS_ADMIN (and CAP_SYS_CHROOT).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CAP_SYS_ADMIN", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE", "has_capability", "missing_for_namespaces",
           "missing_for_ptrace"]

CAP_SYS_CHROOT = 18
CAP_SYS_PTRACE = 19
CAP_SYS_ADMIN = 21
_NAMES = {CAP_SYS_CHROOT: "CAP_SYS_CHROOT", CAP_SYS_PTRACE: "CAP_SYS_PTRACE", CAP_SYS_ADMIN: "CAP_SYS_ADMIN"}


def has_capability(capability: int) -> bool:
    """Whether pyinspect's process holds ``capability`` in its effective set."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> capability & 1)
    return False


def missing_for_ptrace(pid: int) -> list[str]:
    """Why pyinspect cannot read process ``pid``'s memory, or [] when it can."""
    if has_capability(CAP_SYS_PTRACE):
        return []
    try:
        owner = Path(f"/proc/{pid}").stat().st_uid
    except OSError:
        return ["the process ended"]
    if owner == os.geteuid():
        return []
    return [f"owned by uid {owner}: run pyinspect as that user, or as root / with CAP_SYS_PTRACE"]


def missing_for_namespaces() -> list[str]:
    """Why pyinspect cannot enter another process's mount namespace, or [] when it can."""
    missing = [_NAMES[c] for c in (CAP_SYS_ADMIN, CAP_SYS_CHROOT) if not has_capability(c)]
    if not missing:
        return []
    return [(f"debugging a process in another mount namespace (a container) enters that namespace: "
            f"pyinspect needs {' and '.join(missing)} (run it as root, or give the debug container "
            "those capabilities)")]
