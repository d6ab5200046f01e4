"""The NuGet settings a DAC lookup follows, read as NuGet reads them: the global packages
folder (NUGET_PACKAGES, else the configuration's globalPackagesFolder, else ~/.nuget/packages)
and the package sources (NuGet.Config files from the current folder up to the root, then the
user's ~/.nuget/NuGet/NuGet.Config; the nearest wins, ``<clear/>`` drops the farther ones,
``disabledPackageSources`` removes). A company mirror or a local folder feed so named serves
the runtime pack of a dump's runtime."""

from __future__ import annotations

import os
from pathlib import Path
from xml.etree import ElementTree

__all__ = ["package_sources", "packages_folder"]

_NAMES = ("nuget.config", "NuGet.config", "NuGet.Config")


def packages_folder() -> Path:
    """The global packages folder NuGet restores into."""
    if os.environ.get("NUGET_PACKAGES"):
        return Path(os.environ["NUGET_PACKAGES"]).expanduser()
    for config in _config_files():
        value = _setting(config, "config", "globalPackagesFolder")
        if value:
            return _resolve(config, value)
    return Path.home() / ".nuget" / "packages"


def package_sources() -> list[str]:
    """Every enabled package source (a v3 index URL or a local folder), nearest file first."""
    sources: dict[str, str] = {}
    disabled: set[str] = set()
    for config in reversed(_config_files()):  # farthest first, so nearer files override
        root = _parse(config)
        if root is None:
            continue
        section = root.find("packageSources")
        for element in section if section is not None else []:
            if element.tag == "clear":
                sources.clear()
            elif element.tag == "add" and element.get("key") and element.get("value"):
                sources[str(element.get("key"))] = _resolve_source(config, str(element.get("value")))
        off = root.find("disabledPackageSources")
        for element in off if off is not None else []:
            if element.tag == "add" and str(element.get("value", "")).lower() == "true":
                disabled.add(str(element.get("key")))
    return [value for key, value in sources.items() if key not in disabled]


def _config_files() -> list[Path]:
    """NuGet.Config files, nearest first: one in the current folder and each parent, then the user's."""
    found: list[Path] = []
    folder = Path.cwd()
    for directory in (folder, *folder.parents):
        found.extend([directory / name for name in _NAMES if (directory / name).is_file()][:1])
    user = Path.home() / ".nuget" / "NuGet" / "NuGet.Config"
    if user.is_file() and user.resolve() not in {f.resolve() for f in found}:
        found.append(user)
    return found


def _parse(config: Path) -> ElementTree.Element | None:
    try:
        return ElementTree.parse(config).getroot()
    except (OSError, ElementTree.ParseError):
        return None


def _setting(config: Path, section: str, key: str) -> str | None:
    root = _parse(config)
    element = root.find(f"{section}/add[@key='{key}']") if root is not None else None
    return element.get("value") if element is not None else None


def _resolve(config: Path, value: str) -> Path:
    path = Path(os.path.expandvars(value)).expanduser()
    return path if path.is_absolute() else (config.parent / path).resolve()


def _resolve_source(config: Path, value: str) -> str:
    """A URL stays as it is; a folder is made absolute from the config file's folder."""
    if value.lower().startswith(("http://", "https://")):
        return value
    return str(_resolve(config, value))
