"""A recording of a .NET process in its own pid and mount namespaces, its runtime only
inside: trace_start by host pid reaches the runtime's diagnostics socket in the
container's own /tmp (named by the pid inside) through its root, and the answer holds to
the truth the program wrote in its own /tmp."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from support.containers import Container, ContainerApp, running_container, wait_for_inside_file
from support.targets import BUILD_DIR
from support.trace_truth import ROUNDS, assert_matches_truth

from pyinspect.server import create_server

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(300)]

TRUTH, GO = "/tmp/trace-truth.json", "/tmp/go"


def _trace_truth_app() -> ContainerApp:
    """TraceTruth published self-contained for .NET 9, at /app inside."""
    folder = BUILD_DIR / "TraceTruth-net9.0"
    if not (folder / "TraceTruth").is_file():
        pytest.fail(f"TraceTruth for net9.0 is not published ({folder}); run `python3 build.py`")
    return ContainerApp("net9", folder, ("/app/TraceTruth",))


async def test_a_recording_of_a_process_in_a_container_matches_its_truth(tmp_path: Path) -> None:
    app = _trace_truth_app()
    with running_container(app, tmp_path, TRUTH, GO, str(ROUNDS)) as container:
        _wait_for_socket(container)
        async with Client(create_server()) as client:
            started = await _call(client, "trace_start", pid=container.pid)
            assert started["pid"] == container.pid and started["runtimeVersion"].startswith("9.0.")
            container.inside(GO).write_text("go")
            truth = json.loads(wait_for_inside_file(container, TRUTH, timeout=180))
            answer = await _call(client, "trace_stop")
        assert container.alive(), "the recording must leave the program running"
    assert answer["pid"] == container.pid and not answer["targetExited"]
    assert_matches_truth(answer, truth, "net9.0")


def _wait_for_socket(container: Container, timeout: float = 60.0) -> None:
    """Its runtime is up once its diagnostics socket is in its own /tmp (named by its pid
    inside, 1), which the host sees only through its root."""
    deadline = time.monotonic() + timeout
    while not list(container.inside("/tmp").glob("dotnet-diagnostic-1-*-socket")):
        assert container.alive(), "the containerised TraceTruth exited"
        assert time.monotonic() < deadline, "the containerised TraceTruth opened no diagnostics socket"
        time.sleep(0.1)
    assert not list(Path("/tmp").glob("dotnet-diagnostic-1-*-socket")), "the socket must exist only inside"


async def _call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error and result.structured_content is not None, result.content
    return result.structured_content
