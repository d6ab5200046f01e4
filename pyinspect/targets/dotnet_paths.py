"""Where pyinspect finds its built .NET tools and the .NET runtime.

build.py puts every project under dotnet/ into pyinspect/_dotnet/<Project>/, so an
installed package finds its tools without environment variables.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pyinspect.errors import SetupMissingError

PACKAGE_DIR = Path(__file__).resolve().parents[1]
DOTNET_TOOLS_DIR = PACKAGE_DIR / "_dotnet"

__all__ = ["DOTNET_TOOLS_DIR", "dotnet_host", "dotnet_tool", "runtime_dir"]


def dotnet_tool(project: str, file: str | None = None) -> Path:
    """Path of a built file (default ``<project>.dll``) of one dotnet/ project."""
    path = DOTNET_TOOLS_DIR / project / (file or f"{project}.dll")
    if not path.exists():
        raise SetupMissingError(
            f"{path.name} is not built; run `python3 build.py` in the pyinspect checkout",
            path=str(path),
        )
    return path


def dotnet_host() -> Path:
    """The `dotnet` host executable (DOTNET_ROOT wins over PATH)."""
    root = os.environ.get("DOTNET_ROOT")
    if root and (Path(root) / "dotnet").exists():
        return Path(root) / "dotnet"
    found = shutil.which("dotnet")
    if found is None:
        raise SetupMissingError("the .NET host `dotnet` is not on PATH and DOTNET_ROOT is unset")
    return Path(found).resolve()


def runtime_dir(version_prefix: str = "") -> Path:
    """Folder of the newest installed Microsoft.NETCore.App runtime: it holds
    libcoreclr.so, libmscordaccore.so (the DAC), libmscordbi.so and createdump."""
    shared = dotnet_host().parent / "shared" / "Microsoft.NETCore.App"
    versions = sorted(
        (p for p in shared.glob(f"{version_prefix}*") if (p / "libcoreclr.so").exists()),
        key=lambda p: tuple(int(x) if x.isdigit() else 0 for x in p.name.split(".")),
    )
    if not versions:
        raise SetupMissingError(f"no .NET runtime found under {shared}")
    return versions[-1]
