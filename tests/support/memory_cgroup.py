"""A memory cgroup with a limit, for running a program under real memory pressure (as in a
container or a CI job): made below this process's own memory cgroup and always removed.

cgroup v1's memory hierarchy when mounted, else cgroup v2 when its memory controller is
enabled for children of its root. Needs root; raises RuntimeError when no cgroup can be made
(a test then fails, it does not skip).
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class MemoryCgroup:
    """One cgroup folder and how its version names the numbers."""

    folder: Path
    v2: bool

    def wrap(self, command: list[str]) -> list[str]:
        """command, started inside this cgroup (a shell moves itself in, then becomes it:
        all it allocates and starts is charged here; no preexec_fn, safe beside threads)."""
        return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.folder / "cgroup.procs"), *command]

    def peak(self) -> int:
        """The most memory (anonymous and page cache) charged to the cgroup so far."""
        return _number(self.folder / ("memory.peak" if self.v2 else "memory.max_usage_in_bytes"))

    def anonymous(self) -> int:
        """Anonymous memory charged to the cgroup now (its processes' own, without page cache)."""
        key = "anon" if self.v2 else "total_rss"
        for line in (self.folder / "memory.stat").read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
        return 0

    def oom_kills(self) -> int:
        """Processes the kernel killed in this cgroup for going over its limit."""
        name = "memory.events" if self.v2 else "memory.oom_control"
        for line in (self.folder / name).read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0


def _number(path: Path) -> int:
    return int(path.read_text().split()[0])


def _mounts() -> tuple[Path | None, Path | None]:
    """Where cgroup v1's memory hierarchy and cgroup v2 are mounted."""
    v1 = v2 = None
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split(" ")
        after = fields[fields.index("-") + 1:]
        if after[0] == "cgroup" and "memory" in after[2].split(","):
            v1 = Path(fields[4])
        elif after[0] == "cgroup2":
            v2 = Path(fields[4])
    return v1, v2


def _own_path(v2: bool) -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if (v2 and number == "0" and not controllers) or (not v2 and "memory" in controllers.split(",")):
            return path
    return "/"


def _own_folder(mount: Path) -> Path:
    """Our v1 memory cgroup's folder: its path less the mount's root (a container without a
    cgroup namespace sees its full path but has only its own part mounted)."""
    path = _own_path(False)
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split(" ")
        if Path(fields[4]) == mount and path.startswith(fields[3]):
            path = path[len(fields[3]):]
    folder = mount / path.lstrip("/")
    return folder if folder.is_dir() else mount


def _parent() -> MemoryCgroup:
    v1, v2 = _mounts()
    if v1 is not None:
        return MemoryCgroup(_own_folder(v1), v2=False)
    if v2 is not None and "memory" in (v2 / "cgroup.subtree_control").read_text().split():
        return MemoryCgroup(v2, v2=True)
    raise RuntimeError("no writable memory cgroup: cgroup v1's memory hierarchy is not mounted and cgroup v2's "
                       "root does not give its children the memory controller")


@contextmanager
def memory_cgroup(limit: int | None) -> Iterator[MemoryCgroup]:
    """A new memory cgroup limited to limit bytes (no swap beyond it; None: no limit, only
    its peak measured), removed on exit with any process still in it."""
    parent = _parent()
    group = MemoryCgroup(parent.folder / f"pyinspect-pressure-{uuid.uuid4().hex[:12]}", parent.v2)
    try:
        group.folder.mkdir()
    except OSError as error:
        raise RuntimeError(f"cannot make the memory cgroup {group.folder}: {error}") from error
    try:
        if limit is not None:
            _limit(group, limit)
        yield group
    finally:
        _remove(group.folder)


def _limit(group: MemoryCgroup, limit: int) -> None:
    if group.v2:
        (group.folder / "memory.max").write_text(str(limit))
        (group.folder / "memory.swap.max").write_text("0")
        return
    (group.folder / "memory.limit_in_bytes").write_text(str(limit))
    if (group.folder / "memory.memsw.limit_in_bytes").exists():  # swap accounting on: none beyond the limit
        (group.folder / "memory.memsw.limit_in_bytes").write_text(str(limit))


def _remove(folder: Path) -> None:
    """Kill what is left in the cgroup (the caller's own children and theirs), then rmdir it
    once the kernel has let go of them."""
    for pid in (folder / "cgroup.procs").read_text().split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 10
    while True:
        try:
            folder.rmdir()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
