"""Hypothesis-driven fuzzing of every tool's parameters in every session state (no
session, running, paused, exited), bounded for CI (FUZZ_EXAMPLES calls per state;
benchmarks/fuzz_server.py runs 10,000): the server lives, every answer carries the
envelope with a code, and the debuggee is never stopped while the session says running."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from support.fuzz_calls import LIFECYCLE, STATES, SessionDriver, check_envelope, tool_arguments

from pyinspect.server import create_server

FUZZ_EXAMPLES = 60


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BlockingPortal, SessionDriver, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("fuzz")
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(Client(create_server())) as client:
        schemas = {tool.name: tool.input_schema for tool in portal.call(client.list_tools).tools}
        driver = SessionDriver(client, folder)
        yield portal, driver, schemas
        portal.call(driver.call, "debug_disconnect")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("state", STATES)
def test_fuzzed_calls_get_coded_answers_and_never_freeze_the_debuggee(
        fuzzed: tuple[BlockingPortal, SessionDriver, dict[str, Any]], state: str) -> None:
    portal, driver, schemas = fuzzed
    allowed = sorted(name for name in schemas if state in ("no_session", "exited") or name not in LIFECYCLE)
    calls = 0

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def one_call(data: st.DataObject) -> None:
        nonlocal calls
        portal.call(driver.reach, state)
        tool = data.draw(st.sampled_from(allowed), label="tool")
        arguments = data.draw(tool_arguments(schemas[tool]), label="arguments")
        result = portal.call(driver.client.call_tool, tool, arguments)
        check_envelope(tool, result)
        portal.call(driver.check_not_frozen)
        calls += 1

    one_call()
    assert calls >= FUZZ_EXAMPLES // 2
    assert portal.call(driver.state) in ("not_started", "running", "paused", "exited")  # the server still answers
