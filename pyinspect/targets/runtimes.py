"""Which .NET runtime a target runs on, and so which DAC and createdump it gets.

The target's runtime decides, never pyinspect's own: the folder of the libcoreclr.so in
/proc/PID/maps (a shared runtime of any version, or a self-contained app's own folder)
holds the DAC (libmscordaccore.so), the DBI (libmscordbi.so) and createdump of exactly
that build. The adapter decides the DBI the same way (Engine/TargetRuntime.cs). This is
the one place for the DAC: .NET 11's cDAC (mscordaccore_universal) would be chosen here.
A process in a container names its runtime folder in its own view: the files are opened
through its root (pyinspect/targets/process_view.py).
"""

from __future__ import annotations

import json
import mmap
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from pyinspect.errors import NotDotNetProcessError, ProcessNotFoundError
from pyinspect.targets.process_view import ProcessView, view_of

if TYPE_CHECKING:
    from pyinspect.models.runtimes import TargetRuntime

__all__ = ["DAC_SEARCH_PATH_VARIABLE", "coreclr_paths", "runtime_in_folder", "runtime_of", "search_path_dacs"]

_CORECLR = "libcoreclr.so"
_SHARED_MARKER = "/shared/Microsoft.NETCore.App/"
_VERSION_STAMP = re.compile(rb"@\(#\)Version ([0-9.]+)(?: @Commit: ([0-9a-f]+))?")


def coreclr_paths(pid: int) -> list[str]:
    """Each distinct libcoreclr.so mapped into the process (usually one, none before its
    runtime starts). Raises ProcessNotFoundError when the process cannot be read."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except FileNotFoundError as exc:
        raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid) from exc
    except OSError as exc:
        raise ProcessNotFoundError(f"cannot read the memory map of process {pid}: {exc}", pid=pid) from exc
    found: list[str] = []
    for line in maps.splitlines():
        slash = line.find("/")
        if slash >= 0 and line.endswith("/" + _CORECLR) and line[slash:] not in found:
            found.append(line[slash:])
    return found


def runtime_of(pid: int) -> TargetRuntime:
    """The runtime a live process runs on, or a clear error: not a .NET process (or its
    runtime has not started yet), or several runtimes in one process (not supported)."""
    view = view_of(pid)
    paths = coreclr_paths(pid)
    if not paths:
        raise NotDotNetProcessError(
            f"process {pid} has no .NET runtime (libcoreclr.so) loaded: not a .NET process, "
            "or its runtime has not started yet", pid=pid)
    if len(paths) > 1:
        raise NotDotNetProcessError(
            f"process {pid} has several .NET runtimes loaded ({', '.join(paths)}): "
            "reading more than one runtime in a process is not supported", pid=pid)
    return runtime_in_folder(Path(paths[0]).parent, view)


def runtime_in_folder(folder: Path, view: ProcessView | None = None) -> TargetRuntime:
    """The runtime whose libcoreclr.so is in ``folder`` (a path in the view of the process
    that runs it, default pyinspect's own), with its debugging libraries (the models load
    here: a dump's DAC sources, computed as a one-shot command starts, need none)."""
    from pyinspect.models.runtimes import TargetRuntime

    target_folder = str(folder)
    self_contained = _SHARED_MARKER not in target_folder + "/"
    folder = Path(view.reach(target_folder)) if view is not None else folder
    build = _version_stamp(folder / _CORECLR)
    version = _included_runtime_version(folder) if self_contained else folder.name
    return TargetRuntime(
        folder=str(folder), target_folder=target_folder, version=version or build.split(" ")[0], build=build,
        self_contained=self_contained,
        dbi_path=_existing(folder / "libmscordbi.so"),
        dac_path=_existing(folder / "libmscordaccore.so"),
        createdump_path=_existing(folder / "createdump"))


def _existing(path: Path) -> str | None:
    return str(path) if path.is_file() else None


def _version_stamp(coreclr: Path) -> str:
    """The ``@(#)Version`` string the runtime build embeds: ``8.0.3126.42015 (commit 1219a42)``."""
    try:
        with coreclr.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            start = data.find(b"@(#)Version ")
            match = _VERSION_STAMP.match(data[start:start + 120]) if start >= 0 else None
    except (OSError, ValueError):
        return "unknown"
    if match is None:
        return "unknown"
    commit = match.group(2)
    return match.group(1).decode() + (f" (commit {commit.decode()[:12]})" if commit else "")


def _included_runtime_version(folder: Path) -> str | None:
    """A self-contained app's runtimeconfig.json names the runtime it carries."""
    for config in sorted(folder.glob("*.runtimeconfig.json")):
        try:
            options = json.loads(config.read_text()).get("runtimeOptions", {})
        except (OSError, ValueError):
            continue
        for framework in options.get("includedFrameworks", []):
            if framework.get("name") == "Microsoft.NETCore.App" and framework.get("version"):
                return str(framework["version"])
    return None


DAC_SEARCH_PATH_VARIABLE = "PYINSPECT_DAC_SEARCH_PATH"
_DAC = "libmscordaccore.so"


def search_path_dacs(search_path: str | None = None) -> list[str]:
    """Each libmscordaccore.so under the folders of ``search_path`` (':'-separated; default
    $PYINSPECT_DAC_SEARCH_PATH), at most six folder levels deep (a runtime pack's
    runtimes/linux-x64/native/ is four). The helper proves each by build id before use."""
    found: list[str] = []
    folders = search_path if search_path is not None else os.environ.get(DAC_SEARCH_PATH_VARIABLE, "")
    for folder in filter(None, folders.split(":")):
        found.extend(str(dac) for dac in _find_below(Path(folder).expanduser(), _DAC, depth=6))
    return list(dict.fromkeys(found))


def _find_below(folder: Path, name: str, depth: int) -> list[Path]:
    """Files called ``name`` in ``folder`` and up to ``depth`` levels below, iteratively."""
    found: list[Path] = []
    level = [folder]
    for _ in range(depth + 1):
        following: list[Path] = []
        for directory in level:
            try:
                entries = sorted(directory.iterdir())
            except OSError:
                continue
            found.extend(e for e in entries if e.name == name and e.is_file())
            following.extend(e for e in entries if e.is_dir() and not e.is_symlink())
        level = following
    return found
