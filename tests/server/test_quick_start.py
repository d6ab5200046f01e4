"""`pyinspect serve` answers the handshake before the MCP SDK has loaded, with exactly
the replies the SDK gives, in both protocol eras, and corrects a stored reply the SDK
contradicts. Real server processes, spoken to in raw JSON lines as any host does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}}
HANDSHAKE_ERA = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"},
]
ENVELOPE_ERA = [
    {"jsonrpc": "2.0", "id": "a", "method": "server/discover", "params": {"_meta": ENVELOPE}},
    {"jsonrpc": "2.0", "id": "b", "method": "tools/list", "params": {"_meta": ENVELOPE}},
]
CALL = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "debug_state", "arguments": {}}}
ENVELOPE_CALL = {**CALL, "params": {**CALL["params"], "_meta": ENVELOPE}}  # type: ignore[dict-item]
# A server whose SDK can never load (its server package and pydantic's models are
# blocked; their packages stay findable, as the install key looks them up): only the
# front can answer it. It prints to its stdout as a stray library would; the wire must
# not carry that.
FRONT_ONLY = """
import sys, time
sys.modules["mcp.server"] = sys.modules["pydantic.main"] = None
from pyinspect.server.stdio_front import StdioFront
StdioFront.claim_stdio()
print("stray output", flush=True)
time.sleep(60)
"""


class Peer:
    """A server process and the JSON lines it writes, read on a thread."""

    def __init__(self, command: list[str], cache_home: Path) -> None:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=ROOT, env=env)
        self.lines: list[bytes] = []
        self._stderr: list[bytes] = []
        self._arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        self._stderr.extend(self.proc.stderr)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._arrived:
                self.lines.append(line)
                self._arrived.notify_all()

    def send(self, *messages: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        for message in messages:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def replies(self, count: int, timeout: float = 60) -> dict[Any, dict[str, Any]]:
        with self._arrived:
            assert self._arrived.wait_for(lambda: len(self.lines) >= count, timeout), (
                f"{len(self.lines)} of {count} replies within {timeout} s")
            return {message["id"]: message for message in map(json.loads, self.lines)}

    def end(self, kill: bool = False) -> str:
        """Stdin closed, as a host ends a session (or the process killed); its stderr."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        if kill:
            self.proc.kill()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._stderr_reader.join(10)
        return b"".join(self._stderr).decode(errors="replace")


def serve(cache_home: Path) -> Peer:
    return Peer([sys.executable, "-m", "pyinspect", "serve"], cache_home)


def session(cache_home: Path, messages: list[dict[str, Any]], requests: int) -> tuple[dict[Any, dict[str, Any]], str]:
    """A whole session: the handshake, a tool call once it is answered, the end."""
    peer = serve(cache_home)
    peer.send(*messages)
    answered = peer.replies(requests)
    peer.send(CALL if messages[0]["method"] == "initialize" else ENVELOPE_CALL)
    answered = peer.replies(requests + 1)
    return answered, peer.end()


def stored_files(cache_home: Path) -> list[Path]:
    return list((cache_home / "pyinspect").glob("mcp-replies-*.json"))


@pytest.mark.parametrize("messages, requests", [(HANDSHAKE_ERA, 3), (ENVELOPE_ERA, 2)], ids=["initialize", "discover"])
def test_a_second_start_answers_exactly_as_the_sdk_did(
        tmp_path: Path, messages: list[dict[str, Any]], requests: int) -> None:
    first, first_log = session(tmp_path, messages, requests)
    assert len(stored_files(tmp_path)) == 1
    second, second_log = session(tmp_path, messages, requests)
    assert second == first  # the front's replies equal the SDK's, byte for byte once parsed
    assert "differed" not in first_log + second_log
    assert json.loads(second[9]["result"]["content"][0]["text"]) == {"success": True, "state": "not_started"}


def test_the_handshake_is_answered_with_no_sdk_at_all_and_stray_output_misses_the_wire(tmp_path: Path) -> None:
    real, _ = session(tmp_path, HANDSHAKE_ERA, 3)
    peer = Peer([sys.executable, "-c", FRONT_ONLY], tmp_path)
    try:
        peer.send(*HANDSHAKE_ERA)
        answered = peer.replies(3, timeout=30)
        assert answered == {key: real[key] for key in (0, 1, 2)}
        peer.send(CALL)  # no SDK behind the front: a tool call waits, and nothing else is written
    finally:
        stderr = peer.end(kill=True)
    assert "stray output" in stderr and len(peer.lines) == 3, (peer.lines, stderr)


def test_a_stored_reply_the_sdk_contradicts_is_replaced_for_the_next_start(tmp_path: Path) -> None:
    truth, _ = session(tmp_path, HANDSHAKE_ERA, 3)
    [stored] = stored_files(tmp_path)
    content = json.loads(stored.read_text())
    [tools_key] = [key for key in content["replies"] if key.startswith("tools/list")]
    content["replies"][tools_key]["tools"][0]["description"] = "a description from an older build"
    stored.write_text(json.dumps(content))
    stale, log = session(tmp_path, HANDSHAKE_ERA, 3)
    assert stale[1]["result"]["tools"][0]["description"] == "a description from an older build"  # sent early
    assert "differed from the SDK's" in log
    corrected, log = session(tmp_path, HANDSHAKE_ERA, 3)
    assert corrected[1] == truth[1] and "differed" not in log
