"""Symbol stores in the ``_NT_SYMBOL_PATH`` syntax SOS and WinDbg users already set:
``srv*CACHE*URL`` parts separated by ``;`` (a part with only a folder is a local store). Unset,
Microsoft's public symbol server with a cache under the user's cache folder, so a file is
fetched once. ClrMD's own symbol server locator downloads (dotnet/.../SymbolFetch.cs)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["MICROSOFT_SYMBOL_SERVER", "SYMBOL_PATH_VARIABLE", "default_symbol_cache", "symbol_stores"]

SYMBOL_PATH_VARIABLE = "_NT_SYMBOL_PATH"
MICROSOFT_SYMBOL_SERVER = "https://msdl.microsoft.com/download/symbols"
_MARKERS = {"srv", "svr", "cache", "symsrv"}


def default_symbol_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pyinspect" / "symbols"


def symbol_stores(symbol_path: str | None = None) -> list[dict[str, object]]:
    """[{cache, servers}] from ``symbol_path`` (default $_NT_SYMBOL_PATH), in its order."""
    text = os.environ.get(SYMBOL_PATH_VARIABLE, "") if symbol_path is None else symbol_path
    if not text.strip():
        return [{"cache": str(default_symbol_cache()), "servers": [MICROSOFT_SYMBOL_SERVER]}]
    stores: list[dict[str, object]] = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        cache: str | None = None
        servers: list[str] = []
        for entry in (e.strip() for e in part.split("*")):
            if not entry or entry.lower() in _MARKERS or entry.lower().endswith(".dll"):
                continue
            if entry.lower().startswith(("http://", "https://")):
                servers.append(entry)
            elif cache is None and not servers:
                cache = entry
        folder = Path(cache).expanduser() if cache is not None else default_symbol_cache()
        stores.append({"cache": str(folder), "servers": servers})
    return stores
