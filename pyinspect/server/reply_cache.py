"""What the MCP server answered before to the requests whose answer never changes for a
given install: the handshake (``initialize``, ``server/discover``) and the first page of
each listing (``tools/list``, ``prompts/list``, ...).

Why: loading the MCP SDK takes about a second, and an agent host waits for the handshake
and the tool list before its agent can start. With these replies on disk the server
answers both at once while the SDK loads behind them (pyinspect.server.stdio_front).

A reply is only replayed for the same install and sources: the file's key hashes every
pyinspect source and the installed SDK and pydantic packages, so an upgrade or an edited
tool description empties it. Each replayed reply is still computed by the SDK afterwards
and compared; a difference is logged and replaces the stored reply. Standard library
only: this runs before anything heavy is imported.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path
from typing import Any

__all__ = ["ReplyCache", "install_key", "reply_key"]

log = logging.getLogger(__name__)

_PACKAGE = Path(__file__).resolve().parents[1]
_DEPENDENCIES = ("mcp", "mcp_types", "pydantic", "pydantic_core", "anyio")
_STATIC_METHODS = frozenset({"initialize", "server/discover", "tools/list", "prompts/list", "resources/list",
                             "resources/templates/list"})
# The per-request envelope of the stateless protocol era: what a client sends in _meta.
_VERSION_META = "io.modelcontextprotocol/protocolVersion"
_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"
_ENVELOPE_META = frozenset({_VERSION_META, _CAPABILITIES_META, "io.modelcontextprotocol/clientInfo"})
_HANDSHAKE_PARAMS = frozenset({"protocolVersion", "capabilities", "clientInfo", "_meta"})


def install_key() -> str:
    """A hash of everything a static reply can depend on: pyinspect's sources, the
    SDK and pydantic as installed (path, size, time of their package files), Python."""
    digest = hashlib.sha256(sys.version.encode())
    for source in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(source.relative_to(_PACKAGE)).encode())
        digest.update(source.read_bytes())
    for name in _DEPENDENCIES:
        spec = find_spec(name)  # a top-level package's spec: found, not imported
        origin = spec.origin if spec is not None and spec.origin else ""
        stat = os.stat(origin) if origin else None
        digest.update(f"{name}={origin}:{stat.st_size if stat else 0}:{stat.st_mtime_ns if stat else 0}".encode())
    return digest.hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def reply_key(request: dict[str, Any], handshake: str | None) -> str | None:
    """The key under which this request's reply is stored, or None when its reply may
    change (a cursor, a progress token, any parameter beyond the client's envelope).

    ``handshake`` is the key of the session's ``initialize`` (requested version and
    client capabilities): a listing in the handshake era carries no version itself."""
    method, params = request.get("method"), request.get("params")
    params = {} if params is None else params
    if method not in _STATIC_METHODS or not isinstance(params, dict):
        return None
    meta = params.get("_meta") or {}
    if not isinstance(meta, dict) or set(meta) - _ENVELOPE_META:
        return None
    if method == "initialize":
        if set(params) - _HANDSHAKE_PARAMS:
            return None
        return f"initialize {_canonical(params.get('protocolVersion'))} {_canonical(params.get('capabilities'))}"
    if set(params) - {"_meta"}:
        return None
    if _VERSION_META in meta:
        return f"{method} envelope {_canonical(meta[_VERSION_META])} {_canonical(meta.get(_CAPABILITIES_META))}"
    return None if handshake is None else f"{method} after {handshake}"


class ReplyCache:
    """Stored replies of one install, in one JSON file under the user's cache folder
    (``$XDG_CACHE_HOME/pyinspect``, else ``~/.cache/pyinspect``). Reading or writing it
    never fails the server: a missing, foreign or broken file is an empty cache."""

    def __init__(self, path: Path | None, key: str) -> None:
        self._path, self._key = path, key
        self._replies: dict[str, Any] = {}
        if path is not None:
            self._replies = self._load(path, key)

    @classmethod
    def for_this_install(cls) -> ReplyCache:
        try:
            key = install_key()
        except OSError as exc:
            log.debug("no reply cache: %s", exc)
            return cls(None, "")
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pyinspect"
        where = hashlib.sha256(str(_PACKAGE).encode()).hexdigest()[:16]  # one file per install
        return cls(folder / f"mcp-replies-{where}.json", key)

    def get(self, key: str) -> Any | None:
        return self._replies.get(key)

    def put(self, key: str, result: Any) -> None:
        """Stored, and the file rewritten only when the reply is new or changed (a host
        listing tools again in every session must not rewrite it each time)."""
        if self._replies.get(key) == result:
            return
        self._replies[key] = result
        if self._path is not None:
            self._save(self._path)

    @staticmethod
    def _load(path: Path, key: str) -> dict[str, Any]:
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(stored, dict) or stored.get("key") != key or not isinstance(stored.get("replies"), dict):
            return {}
        replies: dict[str, Any] = stored["replies"]
        return replies

    def _save(self, path: Path) -> None:
        """Written whole and renamed into place: servers starting side by side never read
        half a file."""
        text = json.dumps({"key": self._key, "replies": self._replies}, ensure_ascii=False)
        temporary: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, path)
        except OSError as exc:
            log.debug("reply cache not saved to %s: %s", path, exc)
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)
