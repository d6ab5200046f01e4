"""Which MCP replies may be stored and replayed (pyinspect.server.reply_cache): the
handshake and first pages of listings, keyed by protocol version and client
capabilities; never a page behind a cursor or a request with its own parameters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyinspect.server.reply_cache import ReplyCache, install_key, reply_key

VERSION = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"


def request(method: str, params: object = None) -> dict[str, object]:
    message: dict[str, object] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        message["params"] = params
    return message


def initialize(version: str = "2025-06-18", capabilities: object = None) -> dict[str, object]:
    return request("initialize", {"protocolVersion": version, "capabilities": capabilities or {},
                                  "clientInfo": {"name": "any host", "version": "9"}})


def test_the_handshake_is_keyed_by_version_and_capabilities_not_by_who_asks() -> None:
    key = reply_key(initialize(), None)
    assert key is not None
    other_host = initialize()
    other_host["params"]["clientInfo"] = {"name": "another host", "version": "1"}  # type: ignore[index]
    assert reply_key(other_host, None) == key
    assert reply_key(initialize("2025-03-26"), None) != key
    assert reply_key(initialize(capabilities={"roots": {"listChanged": True}}), None) != key


def test_a_listing_in_the_handshake_era_is_keyed_by_its_session_handshake() -> None:
    handshake = reply_key(initialize(), None)
    assert handshake is not None
    assert reply_key(request("tools/list"), handshake) == f"tools/list after {handshake}"
    assert reply_key(request("tools/list", {}), handshake) == f"tools/list after {handshake}"
    assert reply_key(request("tools/list"), None) is None  # no handshake seen: its version is unknown
    assert reply_key(request("prompts/list"), handshake) != reply_key(request("tools/list"), handshake)


def test_a_request_with_the_per_request_envelope_is_keyed_by_its_envelope() -> None:
    meta = {VERSION: "2026-07-28", CAPABILITIES: {}, "io.modelcontextprotocol/clientInfo": {"name": "x"}}
    discover = reply_key(request("server/discover", {"_meta": meta}), None)
    listing = reply_key(request("tools/list", {"_meta": meta}), "\"2025-06-18\" {}")
    assert discover is not None and "2026-07-28" in discover
    assert listing is not None and listing.startswith("tools/list envelope")
    assert reply_key(request("tools/list", {"_meta": {**meta, VERSION: "2027-01-01"}}), None) != listing


@pytest.mark.parametrize("message", [
    request("tools/list", {"cursor": "page-2"}),  # a later page
    request("tools/list", {"_meta": {"progressToken": 7}}),  # progress: not the envelope
    request("tools/call", {"name": "debug_state", "arguments": {}}),  # an answer that changes
    request("ping"),
    request("tools/list", ["positional"]),
    request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "extra": 1}),
])
def test_replies_that_may_change_are_never_keyed(message: dict[str, object]) -> None:
    assert reply_key(message, "\"2025-06-18\" {}") is None


def test_stored_replies_come_back_only_under_the_same_install_key(tmp_path: Path) -> None:
    path = tmp_path / "replies.json"
    ReplyCache(path, "key-1").put("tools/list after x", {"tools": [{"name": "debug_state"}]})
    assert ReplyCache(path, "key-1").get("tools/list after x") == {"tools": [{"name": "debug_state"}]}
    assert ReplyCache(path, "key-2").get("tools/list after x") is None  # an upgrade or an edited source
    assert [p.name for p in tmp_path.iterdir()] == ["replies.json"]  # no temporary file left behind


def test_an_unchanged_reply_leaves_the_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "replies.json"
    cache = ReplyCache(path, "key-1")
    cache.put("k", {"a": 1})
    path.write_text("written by another server")  # a rewrite would replace this
    cache.put("k", {"a": 1})
    assert path.read_text() == "written by another server"
    cache.put("k", {"a": 2})
    assert ReplyCache(path, "key-1").get("k") == {"a": 2}


@pytest.mark.parametrize("content", ["{not json", "[]", json.dumps({"key": "key-1", "replies": []}), ""])
def test_a_broken_file_is_an_empty_cache(tmp_path: Path, content: str) -> None:
    path = tmp_path / "replies.json"
    path.write_text(content)
    assert ReplyCache(path, "key-1").get("anything") is None


def test_an_unwritable_folder_never_fails_the_server(tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("")
    cache = ReplyCache(blocker / "replies.json", "key-1")
    cache.put("k", {"a": 1})  # logged at debug level, kept in memory
    assert cache.get("k") == {"a": 1}


def test_the_install_key_is_stable_and_covers_the_sources(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert install_key() == install_key()
    package = tmp_path / "pyinspect"
    package.mkdir()
    (package / "a.py").write_text("DESCRIPTION = 'one'\n")
    monkeypatch.setattr("pyinspect.server.reply_cache._PACKAGE", package)
    before = install_key()
    (package / "a.py").write_text("DESCRIPTION = 'two'\n")
    assert install_key() != before


def test_the_cache_lives_under_xdg_cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    ReplyCache.for_this_install().put("k", {"a": 1})
    stored = list((tmp_path / "pyinspect").glob("mcp-replies-*.json"))
    assert len(stored) == 1 and json.loads(stored[0].read_text())["replies"] == {"k": {"a": 1}}
