"""A container made with util-linux, as every container engine makes one: its own pid and
mount namespaces, a root of its own (pivot_root, so /proc/PID/maps names its paths), a
private tmpfs /tmp, the app bind-mounted at /app and the host's .NET hidden, so the
program's runtime exists only at a path inside. Needs root (CI runs as root).

The program writes its truth file into its own /tmp; tests read it through its root.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support.targets import BUILD_DIR, target_dll

# Inside the new namespaces (we are pid 1 of the new pid namespace): build the root, move
# into it, mount its own /proc, then become the program (it stays pid 1, as in Docker).
_SETUP = r"""
set -e
R="$CTR_ROOT"
mount -t tmpfs ctr-root "$R"
for d in usr lib lib64 lib32 bin sbin etc; do
  if [ -L "/$d" ]; then ln -s "$(readlink "/$d")" "$R/$d";
  elif [ -d "/$d" ]; then mkdir "$R/$d"; mount --rbind "/$d" "$R/$d"; fi
done
mount -t tmpfs ctr-hide "$R$CTR_HOST_DOTNET"
mkdir -p "$R/proc" "$R/dev" "$R/tmp" "$R/app" "$R/oldroot"
mount --rbind /dev "$R/dev"
mount -t tmpfs ctr-tmp "$R/tmp"
mount --bind "$CTR_APP" "$R/app"
if [ -n "$CTR_RUNTIME" ]; then mkdir -p "$R/opt/ctr-dotnet"; mount --bind "$CTR_RUNTIME" "$R/opt/ctr-dotnet"; fi
cd "$R"
pivot_root . oldroot
mount -t proc proc /proc
umount -l /oldroot
rmdir /oldroot
cd /app
exec "$@"
"""

HOST_DOTNET = "/usr/share/dotnet"


@dataclass(frozen=True)
class ContainerApp:
    """One of the apps the container tests run: what to bind at /app and how to start it."""

    name: str
    app_folder: Path
    command: tuple[str, ...]
    runtime_folder: Path | None = None
    """A .NET installation bound at /opt/ctr-dotnet (framework-dependent apps)."""

    @property
    def version_prefix(self) -> str:
        return {"net8": "8.0.", "net9": "9.0.", "net10": "10.0."}[self.name]

    @property
    def self_contained(self) -> bool:
        return self.runtime_folder is None


def container_apps() -> list[ContainerApp]:
    """MemoryTruth self-contained for .NET 8 and 9, framework-dependent on .NET 10."""
    apps = []
    for framework in ("net8.0", "net9.0"):
        folder = BUILD_DIR / f"MemoryTruth-{framework}"
        if not (folder / "MemoryTruth").is_file():
            pytest.fail(f"MemoryTruth for {framework} is not published ({folder}); run `python3 build.py`")
        apps.append(ContainerApp(framework.split(".")[0], folder, ("/app/MemoryTruth",)))
    dll = target_dll("MemoryTruth")
    apps.append(ContainerApp("net10", dll.parent, ("/opt/ctr-dotnet/dotnet", "/app/MemoryTruth.dll"),
                             Path(HOST_DOTNET)))
    return apps


@dataclass
class Container:
    """A running containerised program: host pid, its root, and the unshare around it."""

    pid: int
    launcher: subprocess.Popen[bytes]

    @property
    def root(self) -> Path:
        return Path(f"/proc/{self.pid}/root")

    def inside(self, path: str) -> Path:
        """A path in the container, as the host reaches it."""
        return self.root / path.lstrip("/")

    def alive(self) -> bool:
        return Path(f"/proc/{self.pid}").exists() and _state(self.pid) not in ("Z", "X", "")

    def run_inside(self, *command: str) -> subprocess.CompletedProcess[str]:
        """A command in the container's namespaces (as `docker exec`)."""
        return subprocess.run(["nsenter", "-t", str(self.pid), "-m", "-p", "--", *command],
                              capture_output=True, text=True, timeout=60, check=False)


def require_root() -> None:
    if os.geteuid() != 0:
        pytest.fail("container tests make namespaces with unshare and mount: run them as root (CI does)")
    for tool in ("unshare", "pivot_root", "nsenter"):
        if shutil.which(tool) is None:
            pytest.fail(f"util-linux's {tool} is missing: apt-get install util-linux mount")


@contextmanager
def running_container(app: ContainerApp, workdir: Path, *args: str, pid_namespace: bool = True) -> Iterator[Container]:
    """Start ``app`` in new namespaces; always killed afterwards (it is its pid namespace's
    init: killing it ends everything in the namespace). ``pid_namespace=False`` shares the
    host's pids (a pod whose containers share one pid namespace)."""
    require_root()
    root = workdir / "ctr-root"
    root.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("TMPDIR", "DOTNET_ROOT")}
    env.update(CTR_ROOT=str(root), CTR_APP=str(app.app_folder), CTR_HOST_DOTNET=HOST_DOTNET,
               CTR_RUNTIME=str(app.runtime_folder or ""))
    launcher = subprocess.Popen(
        ["unshare", *(["--pid"] if pid_namespace else []), "--fork", "--kill-child", "--mount", "--propagation", "private",
         "sh", "-c", _SETUP, "ctr-setup", *app.command, *args],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        pid = _wait_for_child(launcher)
        yield Container(pid, launcher)
    finally:
        _end(launcher)
        root.rmdir()  # its mounts were the namespace's own and ended with it: the folder is empty now


def wait_for_inside_file(container: Container, path: str, timeout: float = 60.0) -> Any:
    """Wait (bounded) for the program to write ``path`` in its own view; its text."""
    where = container.inside(path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # Until the container has its own mounts, its root is still the host's: a file of the
        # same name left in the host's /tmp must never pass for the program's.
        if _own_mounts(container.pid) and _own_folder(where.parent, Path(path).parent) and where.exists() \
                and where.stat().st_size > 0:
            return where.read_text()
        if container.launcher.poll() is not None:
            err = container.launcher.stderr.read().decode() if container.launcher.stderr else ""
            raise AssertionError(f"the containerised program exited with {container.launcher.returncode}: {err}")
        time.sleep(0.05)
    raise AssertionError(f"the containerised program did not write {path} within {timeout}s")


def _own_mounts(pid: int) -> bool:
    """Whether the process has entered a mount namespace other than ours."""
    try:
        return os.stat(f"/proc/{pid}/ns/mnt").st_ino != os.stat("/proc/self/ns/mnt").st_ino
    except OSError:
        return False


def _own_folder(inside: Path, host: Path) -> bool:
    """Whether the container's folder is its own mount (its tmpfs), not the host's folder."""
    try:
        return inside.stat().st_dev != host.stat().st_dev
    except OSError:
        return False


def _wait_for_child(launcher: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    """The host pid of unshare's forked child (pid 1 inside), once it runs the program."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = Path(f"/proc/{launcher.pid}/task/{launcher.pid}/children")
        try:
            found = children.read_text().split()
        except OSError:
            found = []
        if found and "ctr-setup" not in _command_line(int(found[0])):
            return int(found[0])
        if launcher.poll() is not None:
            err = launcher.stderr.read().decode() if launcher.stderr else ""
            raise AssertionError(f"making the container failed ({launcher.returncode}): {err}")
        time.sleep(0.05)
    raise AssertionError("the container's program did not start")


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def _end(launcher: subprocess.Popen[bytes]) -> None:
    """SIGKILL, not SIGTERM: unshare --fork ignores SIGTERM while it waits for its child (each
    container's end waited 15 s for nothing). --kill-child: the program, pid 1 of its
    namespace, gets SIGKILL as unshare dies, and everything in the namespace with it."""
    if launcher.poll() is None:
        launcher.kill()
    launcher.wait(timeout=15)


CHECKOUT = Path(__file__).resolve().parents[2]


def sidecar_prefix() -> tuple[str, ...]:
    """What runs a command as a sidecar (kubectl debug --target, shareProcessNamespace): a mount
    namespace of its own with a private tmpfs /tmp, sharing the host's pids. A checkout under
    /tmp (a clone anywhere) stays visible: the shell holds it as its working folder while the
    tmpfs covers /tmp, then binds that folder ("." as is: mount would otherwise resolve the
    path again, now inside the tmpfs) back at the same path inside. The namespace, its mounts and
    the tmpfs end with the command; nothing is mounted on the host."""
    keep = str(CHECKOUT)
    if Path("/tmp") in CHECKOUT.parents:
        script = ('cd "$1" && mount -t tmpfs sidecar-tmp /tmp && mkdir -p "$1" && mount --no-canonicalize --bind . "$1" && cd "$1" '
                  '&& shift && exec "$@"')
    else:
        script = 'shift && mount -t tmpfs sidecar-tmp /tmp && exec "$@"'
    return ("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sidecar", keep)


def in_other_mount_namespace(*command: str) -> subprocess.CompletedProcess[str]:
    """A command run as a sidecar (sidecar_prefix), its output captured."""
    return subprocess.run([*sidecar_prefix(), *command], capture_output=True, text=True, timeout=300, check=False)
