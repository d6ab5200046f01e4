"""Fuzz one `pyinspect serve` (over stdio, as a client sees it) with N hypothesis-drawn
calls spread over the four session states (no session, running, paused, exited).

    .venv/bin/python benchmarks/fuzz_server.py [--calls 10000]

Every answer must carry the envelope with a code; the server must answer to the end;
while the session says running, the DebuggeeLoop's counter must move. Prints the calls
made, the error codes seen and their counts, calls per second, and any failure (the
first failing call is printed by hypothesis, shrunk). Exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters
from support.fuzz_calls import LIFECYCLE, STATES, SessionDriver, check_envelope, tool_arguments


def fuzz_state(portal: BlockingPortal, driver: SessionDriver, schemas: dict[str, Any], state: str,
               calls: int, codes: collections.Counter[str]) -> None:
    allowed = sorted(name for name in schemas if state in ("no_session", "exited") or name not in LIFECYCLE)

    @settings(max_examples=calls, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one_call(data: st.DataObject) -> None:
        portal.call(driver.reach, state)
        tool = data.draw(st.sampled_from(allowed), label="tool")
        arguments = data.draw(tool_arguments(schemas[tool]), label="arguments")
        answer = check_envelope(tool, portal.call(driver.client.call_tool, tool, arguments))
        error = answer.get("error")
        codes[str(error["code"]) if isinstance(error, dict) else str(answer.get("code", "ok"))] += 1
        portal.call(driver.check_not_frozen)

    one_call()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=10_000)
    options = parser.parse_args()
    server = StdioServerParameters(command=sys.executable, args=["-m", "pyinspect", "serve"], env={**os.environ})
    codes: collections.Counter[str] = collections.Counter()
    started = time.monotonic()
    failed = False
    with tempfile.TemporaryDirectory() as folder, start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(server)) as client:
        schemas = {tool.name: tool.input_schema for tool in portal.call(client.list_tools).tools}
        driver = SessionDriver(client, Path(folder))
        for state in STATES:
            try:
                fuzz_state(portal, driver, schemas, state, options.calls // len(STATES), codes)
            except AssertionError as exc:
                print(f"FAILED in state {state}: {exc}")
                failed = True
            print(f"after {state}: {sum(codes.values())} calls, {time.monotonic() - started:.0f} s", flush=True)
        alive = portal.call(driver.state)
        portal.call(driver.call, "debug_disconnect")
    elapsed = time.monotonic() - started
    total = sum(codes.values())
    print(f"{total} calls in {elapsed:.0f} s ({total / elapsed:.1f}/s); server still answers: state={alive}")
    for code, count in codes.most_common():
        print(f"  {code:24} {count}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
