"""The official MCP conformance suite (@modelcontextprotocol/conformance, npm, run with the
Node 22 of the `node` npm package) against one `pyinspect serve --http`, through a proxy
that adds the server's bearer token (tests/node/conformance/token_proxy.mjs; the suite
sends none). Every server scenario the suite lists is either run and must pass, or named
below as not applicable with the reason: a scenario added by a newer suite fails this
test until it is placed. All scenarios run against the same server, one after another:
clients that never DELETE their session must not lock the next one out."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.listening import stop, wait_listening

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "tests/node"
NODE22 = NODE_DIR / "node_modules/.bin/node"
SUITE = NODE_DIR / "node_modules/@modelcontextprotocol/conformance/dist/index.js"
TOKEN = "conformance-token-" + "c" * 24

APPLICABLE = ("server-initialize", "ping", "tools-list", "prompts-list", "resources-list",
              "server-sse-multiple-streams", "dns-rebinding-protection")
_SUITE_TOOL = "calls a tool of the suite's own test server ({}), which pyinspect does not have"
_SUITE_RESOURCE = "reads a resource of the suite's own test server; pyinspect serves no resources"
_SUITE_PROMPT = "gets a prompt of the suite's own test server ({}); pyinspect's prompt is find_memory_leak"
NOT_APPLICABLE = {
    "logging-set-level": "logging/setLevel: pyinspect declares no logging capability (answers -32601, as the spec "
                         "asks of a server without it)",
    "completion-complete": "completion/complete: pyinspect declares no completions capability",
    "tools-call-simple-text": _SUITE_TOOL.format("test_simple_text"),
    "tools-call-image": _SUITE_TOOL.format("test_image_content"),
    "tools-call-audio": _SUITE_TOOL.format("test_audio_content"),
    "tools-call-embedded-resource": _SUITE_TOOL.format("test_embedded_resource"),
    "tools-call-mixed-content": _SUITE_TOOL.format("test_multiple_content_types"),
    "tools-call-with-logging": _SUITE_TOOL.format("test_tool_with_logging"),
    "tools-call-error": _SUITE_TOOL.format("test_error_handling"),
    "tools-call-with-progress": _SUITE_TOOL.format("test_tool_with_progress"),
    "tools-call-sampling": _SUITE_TOOL.format("test_sampling"),
    "tools-call-elicitation": _SUITE_TOOL.format("test_elicitation"),
    "json-schema-2020-12": _SUITE_TOOL.format("json_schema_2020_12_tool"),
    "elicitation-sep1034-defaults": _SUITE_TOOL.format("test_elicitation_sep1034_defaults"),
    "elicitation-sep1330-enums": _SUITE_TOOL.format("test_elicitation_sep1330_enums"),
    "server-sse-polling": _SUITE_TOOL.format("test_reconnection") + " (pyinspect's own resume after a dropped "
                          "connection: tests/server/test_http_sessions.py)",
    "resources-read-text": _SUITE_RESOURCE,
    "resources-read-binary": _SUITE_RESOURCE,
    "resources-templates-read": _SUITE_RESOURCE,
    "resources-subscribe": _SUITE_RESOURCE,
    "resources-unsubscribe": _SUITE_RESOURCE,
    "prompts-get-simple": _SUITE_PROMPT.format("test_simple_prompt"),
    "prompts-get-with-args": _SUITE_PROMPT.format("test_prompt_with_arguments"),
    "prompts-get-embedded-resource": _SUITE_PROMPT.format("test_prompt_with_embedded_resource"),
    "prompts-get-with-image": _SUITE_PROMPT.format("test_prompt_with_image"),
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])




def suite(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(NODE22), str(SUITE), *args], cwd=NODE_DIR, capture_output=True, text=True,
                          timeout=timeout, check=False)


def listed_scenarios() -> set[str]:
    listing = suite("list", "--server").stdout
    return set(re.findall(r"^\s+- ([a-z0-9-]+)", listing, flags=re.MULTILINE))


@pytest.fixture(scope="module")
def proxied_url() -> Iterator[str]:
    assert NODE22.exists() and SUITE.exists(), "run python3 build.py (npm ci in tests/node)"
    env = {**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN}
    port, proxy_port = free_port(), free_port()
    server = subprocess.Popen([sys.executable, "-m", "pyinspect", "serve", "--http", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    proxy = subprocess.Popen([str(NODE22), "conformance/token_proxy.mjs", str(proxy_port), str(port)], cwd=NODE_DIR,
                             stdout=subprocess.DEVNULL, env=env)
    try:
        wait_listening(server, port)
        wait_listening(proxy, proxy_port)
        yield f"http://localhost:{proxy_port}/mcp"
    finally:
        stop(proxy)
        stop(server)


def test_the_suite_runs_on_node_22() -> None:
    version = subprocess.run([str(NODE22), "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("v22."), version


def test_every_server_scenario_is_run_or_named_not_applicable() -> None:
    listed = listed_scenarios()
    assert listed, "the suite listed no server scenarios"
    placed = set(APPLICABLE) | set(NOT_APPLICABLE)
    assert not set(APPLICABLE) & set(NOT_APPLICABLE)
    assert listed == placed, f"not placed: {sorted(listed - placed)}; no longer listed: {sorted(placed - listed)}"


@pytest.mark.timeout(900)
def test_the_applicable_scenarios_pass_one_after_another_on_one_server(proxied_url: str) -> None:
    failed = {}
    for scenario in APPLICABLE * 4:  # 28 runs: more clients than the server keeps sessions, none DELETEs
        done = suite("server", "--url", proxied_url, "--scenario", scenario)
        if done.returncode != 0 or " 0 failed" not in done.stdout:
            failed[scenario] = done.stdout[-3000:] + done.stderr[-2000:]
    assert not failed, failed
