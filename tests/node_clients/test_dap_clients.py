"""The node suite under tests/node/dap: VS Code's own DAP test client (DebugClient from
@vscode/debugadapter-testsupport) driving `pyinspect dap`, every adapter message checked
against the DAP schema. One pytest test per file, failing with node's output."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NODE_DIR = Path(__file__).resolve().parents[1] / "node"
SUITE = sorted((NODE_DIR / "dap").glob("*.test.mjs"))


def node_ready() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: the DAP client suite needs node 20+ (see docs/adapter.md)")
    if not (NODE_DIR / "node_modules" / "@vscode" / "debugadapter-testsupport").exists():
        pytest.fail("tests/node/node_modules is missing: run `python3 build.py` (it runs npm ci)")
    return node


@pytest.mark.parametrize("suite", SUITE, ids=[s.name for s in SUITE])
def test_dap_client_suite(suite: Path) -> None:
    node = node_ready()
    pyinspect = Path(sys.executable).parent / "pyinspect"
    result = subprocess.run([node, "--test", "--test-reporter=spec", str(suite)], check=False, cwd=NODE_DIR,
                            env={**os.environ, "PYINSPECT": str(pyinspect)},
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{suite.name} failed:\n{result.stdout}\n{result.stderr}"


def test_the_suite_is_there() -> None:
    assert len(SUITE) >= 2, "tests/node/dap/*.test.mjs went missing"
