"""Where pyinspect finds its built .NET tools and the .NET runtime.

build.py puts every project under dotnet/ into pyinspect/_dotnet/<Project>/, so an
installed package finds its tools without environment variables.

The paths are found with os.path alone (pathlib, shutil and the errors load when they are
used): a one-shot command spawns its dump reader from these before anything else loads
(pyinspect.heap.reader_spawn), and those imports were milliseconds before that spawn.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

_TOOLS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "_dotnet")

__all__ = ["dotnet_host", "dotnet_host_file", "dotnet_tool", "dotnet_tool_file", "runtime_dir"]


def dotnet_tool_file(project: str, file: str | None = None) -> str:
    """Path of a built file (default ``<project>.dll``) of one dotnet/ project."""
    path = os.path.join(_TOOLS_DIR, project, file or f"{project}.dll")
    if not os.path.exists(path):
        from pyinspect.errors import SetupMissingError

        raise SetupMissingError(
            f"{os.path.basename(path)} is not built; run `python3 build.py` in the pyinspect checkout",
            path=path,
        )
    return path


def dotnet_tool(project: str, file: str | None = None) -> Path:
    """:func:`dotnet_tool_file` as a Path."""
    from pathlib import Path

    return Path(dotnet_tool_file(project, file))


def dotnet_host_file() -> str:
    """The `dotnet` host executable (DOTNET_ROOT wins over PATH), its links resolved."""
    root = os.environ.get("DOTNET_ROOT")
    if root and os.path.exists(os.path.join(root, "dotnet")):
        return os.path.join(root, "dotnet")
    found = _on_path("dotnet")
    if found is None:
        from pyinspect.errors import SetupMissingError

        raise SetupMissingError("the .NET host `dotnet` is not on PATH and DOTNET_ROOT is unset")
    return os.path.realpath(found)


def dotnet_host() -> Path:
    """:func:`dotnet_host_file` as a Path."""
    from pathlib import Path

    return Path(dotnet_host_file())


def _on_path(name: str) -> str | None:
    """The first executable file called name in $PATH's folders, as shutil.which finds it
    (whose module loads compression libraries and re: 5 ms before a reader's spawn)."""
    folders = os.environ.get("PATH")
    if folders is None:
        try:
            folders = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            folders = os.defpath
    for folder in dict.fromkeys(folders.split(os.pathsep)) if folders else ():
        path = os.path.join(folder, name)
        if os.path.exists(path) and os.access(path, os.F_OK | os.X_OK) and not os.path.isdir(path):
            return path
    return None


def runtime_dir(version_prefix: str = "") -> Path:
    """Folder of the newest installed Microsoft.NETCore.App runtime: it holds
    libcoreclr.so, libmscordaccore.so (the DAC), libmscordbi.so and createdump."""
    from pyinspect.errors import SetupMissingError

    shared = dotnet_host().parent / "shared" / "Microsoft.NETCore.App"
    versions = sorted(
        (p for p in shared.glob(f"{version_prefix}*") if (p / "libcoreclr.so").exists()),
        key=lambda p: tuple(int(x) if x.isdigit() else 0 for x in p.name.split(".")),
    )
    if not versions:
        raise SetupMissingError(f"no .NET runtime found under {shared}")
    return versions[-1]
