"""`pyinspect serve` has one start path: every reply comes from the MCP SDK running in
that process, nothing is stored between starts (a fresh and a read-only
$XDG_CACHE_HOME stay empty), and the wire is the SDK's alone: what the process prints
goes to stderr. Real server processes, spoken to in raw JSON lines as any host does."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HANDSHAKE = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "debug_state", "arguments": {}}},
]
# `pyinspect serve` as main() runs it, with a stray print once the wire is claimed (as a
# library printing at import would): the print must reach stderr, never the wire.
STRAY = """
import sys
sys.argv = ["pyinspect", "serve"]
from pyinspect.server.stdio_wire import claim_stdio
claim_stdio()
print("stray output", flush=True)
from pyinspect.cli import main
main()
"""


def session(command: list[str], cache_home: Path) -> tuple[dict[Any, dict[str, Any]], str]:
    """The handshake, the tool list and one tool call; (replies by id, stderr)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    lines = "".join(json.dumps(m) + "\n" for m in HANDSHAKE)
    # stdin stays open until the replies are read: the SDK ends the session at end of input
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines.encode())
    proc.stdin.flush()
    replies: dict[Any, dict[str, Any]] = {}
    try:
        while len(replies) < 3:
            line = proc.stdout.readline()
            assert line, "the server ended before answering"
            message = json.loads(line)  # every byte on the wire is a JSON-RPC message
            replies[message["id"]] = message
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    return replies, proc.stderr.read().decode(errors="replace")


def set_read_only(folder: Path, read_only: bool) -> None:
    """Unwritable even for root (which ignores the mode): the immutable attribute too."""
    if os.geteuid() == 0 and not read_only:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR if read_only else stat.S_IRWXU)
    if os.geteuid() == 0 and read_only:
        subprocess.run(["chattr", "+i", str(folder)], check=True)


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*")]


@pytest.mark.parametrize("read_only", [False, True], ids=["fresh", "read-only"])
def test_serve_answers_from_the_sdk_and_writes_nothing_to_the_cache_folder(tmp_path: Path, read_only: bool) -> None:
    cache_home = tmp_path / "cache"
    cache_home.mkdir()
    if read_only:
        set_read_only(cache_home, True)
        with pytest.raises(PermissionError):
            (cache_home / "probe").write_text("")
    try:
        replies, stderr = session([sys.executable, "-m", "pyinspect", "serve"], cache_home)
        assert files_under(cache_home) == [], files_under(cache_home)
    finally:
        if read_only:
            set_read_only(cache_home, False)
    assert replies[0]["result"]["serverInfo"]["name"] == "pyinspect", replies[0]
    assert len(replies[1]["result"]["tools"]) > 30
    assert json.loads(replies[2]["result"]["content"][0]["text"]) == {"success": True, "state": "not_started"}
    assert "Traceback" not in stderr, stderr


def test_a_stray_print_misses_the_wire(tmp_path: Path) -> None:
    replies, stderr = session([sys.executable, "-c", STRAY], tmp_path)
    assert sorted(replies) == [0, 1, 2]
    assert "stray output" in stderr, stderr
