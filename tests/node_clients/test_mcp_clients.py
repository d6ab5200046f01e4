"""The TypeScript MCP SDK as an outside client (tests/node/mcp/): every tool's success and
error over stdio and streamable HTTP must be accepted by the SDK's output-schema check,
and every error code must be one the error table of docs/mcp.md lists."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.debuggee_loop import counting_loop
from support.targets import marker_line, target_dll, target_source

ROOT = Path(__file__).resolve().parents[2]


def documented_codes() -> list[str]:
    """The codes of docs/mcp.md's error table (rows starting with | `CODE` |)."""
    return re.findall(r"^\| `([A-Z_]+)` \|", (ROOT / "docs" / "mcp.md").read_text(), flags=re.MULTILINE)


def test_every_error_code_is_in_the_documented_table() -> None:
    from pyinspect.errors import ErrorCode
    listed = set(documented_codes())
    assert listed, "docs/mcp.md has no error code table"
    assert {str(code) for code in ErrorCode} <= listed, {str(c) for c in ErrorCode} - listed


@pytest.mark.timeout(600)
def test_the_typescript_sdk_reads_every_tool_over_stdio_and_http(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "node is not on PATH (tests/node needs it)"
    assert (ROOT / "tests/node/node_modules/@modelcontextprotocol/sdk").is_dir(), "run python3 build.py (npm ci)"
    with counting_loop(tmp_path) as (loop, _):
        run_node(node, tmp_path, loop.pid)
        assert loop.poll() is None, "the attached process did not survive the detach"


def run_node(node: str, tmp_path: Path, attach_pid: int) -> None:
    plan = {
        "pyinspect": str(Path(sys.executable).parent / "pyinspect"),
        "program": str(target_dll("MemoryTruth")),
        "truth_dir": str(tmp_path),
        "source": str(target_source("MemoryTruth")),
        "line": marker_line("MemoryTruth", "ready"),
        "object": "customer",
        "collection": "ints",
        "codes": documented_codes(),
        "attach_pid": attach_pid,
    }
    env = {**os.environ, "PYINSPECT_MCP_PLAN": json.dumps(plan)}
    done = subprocess.run([node, "--test", "--test-reporter=spec", "tests/node/mcp/"], check=False, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, f"node --test failed:\n{done.stdout[-20000:]}\n{done.stderr[-5000:]}"
