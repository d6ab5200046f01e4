"""Where a dump's DAC is looked for, from the user's settings, in the order the helper walks
(dotnet/PyInspect.Heap/Target/DacLookup.cs proves each by build id before loading it):

1. ``dac`` (``--dac``), alone;
2. beside the dump: the folder ``<dump>.dac/`` that ``heap dump`` fills with the target's
   libmscordaccore.so, the libcoreclr.so that proves its build and the app's PDBs
   (:func:`keep_runtime_beside`);
3. the runtime folder the dump records, the runtimes installed here (the .NET roots of
   $PYINSPECT_DOTNET_ROOTS, default the ``dotnet`` host's), the folders of
   $PYINSPECT_DAC_SEARCH_PATH;
4. the NuGet global packages folder's runtime pack of the dump's exact runtime version;
5. the symbol stores of $_NT_SYMBOL_PATH (default Microsoft's server, cached);
6. the NuGet package sources of the NuGet configuration, the pack put into the packages folder.

``offline`` (default $PYINSPECT_OFFLINE) keeps 5 and 6 off the network; every network wait
lasts at most $PYINSPECT_NETWORK_TIMEOUT seconds (default 10).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from pyinspect.errors import InvalidParameterError, SetupMissingError
from pyinspect.targets.dotnet_paths import dotnet_host
from pyinspect.targets.nuget_config import package_sources, packages_folder
from pyinspect.targets.process_view import view_of
from pyinspect.targets.runtimes import search_path_dacs
from pyinspect.targets.symbol_path import symbol_stores

if TYPE_CHECKING:
    from pyinspect.models.runtimes import TargetRuntime

__all__ = ["DOTNET_ROOTS_VARIABLE", "OFFLINE_VARIABLE", "TIMEOUT_VARIABLE", "beside_dump", "dac_sources_json",
           "installed_runtime_folders", "is_offline", "keep_runtime_beside"]

OFFLINE_VARIABLE = "PYINSPECT_OFFLINE"
DOTNET_ROOTS_VARIABLE = "PYINSPECT_DOTNET_ROOTS"
TIMEOUT_VARIABLE = "PYINSPECT_NETWORK_TIMEOUT"
_KEPT = ("libmscordaccore.so", "libcoreclr.so")


def beside_dump(dump: Path) -> Path:
    """The folder kept beside a dump for its runtime's DAC: ``core.1234`` -> ``core.1234.dac/``."""
    return dump.with_name(dump.name + ".dac")


def keep_runtime_beside(dump: Path, runtime: TargetRuntime, pid: int | None = None) -> list[str]:
    """Copy the target runtime's DAC and libcoreclr.so (the proof of its build) beside the
    dump, and the portable PDB beside each assembly the process ``pid`` mapped (the app's
    own: runtimes ship none), so they travel together; the paths kept (none when the runtime
    lacks its DAC or the folder cannot be written)."""
    folder = beside_dump(dump)
    sources = [Path(runtime.folder) / name for name in _KEPT]
    if not all(source.is_file() for source in sources):
        return []
    sources += _app_pdbs(pid) if pid is not None else []
    try:
        folder.mkdir(exist_ok=True)
        for source in sources:
            shutil.copyfile(source, folder / source.name)
    except OSError:
        return []  # the dump is written; it is read with a DAC found elsewhere
    return [str(folder / source.name) for source in sources]


def _app_pdbs(pid: int) -> list[Path]:
    """The .pdb beside each .dll mapped into the process, reached through its root."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return []
    view = view_of(pid)
    dlls = {line[line.find("/"):] for line in maps.splitlines() if line.endswith(".dll") and "/" in line}
    pdbs = {Path(view.reach(dll)).with_suffix(".pdb") for dll in dlls}
    return sorted({pdb.name: pdb for pdb in pdbs if pdb.is_file()}.values())


def is_offline(offline: bool | None = None) -> bool:
    if offline is not None:
        return offline
    return os.environ.get(OFFLINE_VARIABLE, "").strip().lower() in {"1", "true", "yes", "on"}


def dac_sources_json(dump: Path, *, dac: str | Path | None = None, search_path: str | None = None,
                     offline: bool | None = None) -> str:
    """The places, as the JSON the helper's DacSources reads."""
    explicit = os.path.abspath(Path(dac).expanduser()) if dac is not None else None
    return json.dumps({
        "explicitDac": explicit,
        "besideDump": str(beside_dump(dump.absolute())),
        "installedRuntimes": [str(folder) for folder in installed_runtime_folders()],
        "searchDacs": search_path_dacs(search_path),
        "packagesFolder": str(packages_folder()),
        "symbolStores": symbol_stores(),
        "feeds": package_sources(),
        "offline": is_offline(offline),
        "timeoutSeconds": _timeout(),
    })


def installed_runtime_folders() -> list[Path]:
    """…/shared/Microsoft.NETCore.App of each .NET root ($PYINSPECT_DOTNET_ROOTS, ':'-separated;
    default the root of the ``dotnet`` host pyinspect finds)."""
    roots = os.environ.get(DOTNET_ROOTS_VARIABLE)
    if roots is None:
        try:
            folders = [dotnet_host().resolve().parent]
        except SetupMissingError:  # no host: no installed runtime to try
            folders = []
    else:
        folders = [Path(root).expanduser() for root in roots.split(":") if root]
    return [folder / "shared" / "Microsoft.NETCore.App" for folder in folders]


def _timeout() -> float:
    text = os.environ.get(TIMEOUT_VARIABLE, "10")
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 600:
        raise InvalidParameterError(f"{TIMEOUT_VARIABLE} must be a number of seconds in (0, 600], got {text!r}")
    return value

