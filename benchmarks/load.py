"""Load on one `pyinspect serve` (stdio): 1,000 inspection calls at one stop, then 200
breakpoint-hit cycles, with the RSS of the server and of the adapter printed at intervals.

    .venv/bin/python benchmarks/load.py [--calls 1000] [--hits 200]

DebuggeeLoop stops at `// @bp tick` (every 50 ms of its run). At the first stop,
threads_list, stacktrace_get, variables_get and evaluate (`counter`) are called in turn;
then debug_continue (waiting) must come back paused at the same line every time: a stop
that does not come is a lost stop and is counted. Memory should stay flat: the warm and
last RSS are printed side by side with their ratio (from the first sample after warm-up).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import anyio
import psutil
from mcp import Client, StdioServerParameters
from support.targets import marker_line, target_dll, target_source

INSPECTIONS: list[tuple[str, dict[str, Any]]] = [
    ("threads_list", {}), ("stacktrace_get", {}), ("variables_get", {}), ("evaluate", {"expression": "counter"})]


def rss_mb() -> tuple[float, float]:
    """(server, adapter) resident memory in MB."""
    server = next(p for p in psutil.Process().children() if "serve" in p.cmdline())
    adapters = [p for p in server.children(recursive=True) if any("PyInspect.Debugger" in a for a in p.cmdline())]
    return server.memory_info().rss / 2**20, sum(a.memory_info().rss for a in adapters) / 2**20


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    answer = result.structured_content
    assert isinstance(answer, dict) and not result.is_error, f"{tool}: {result.content}"
    return answer


async def run(calls: int, hits: int) -> None:
    server = StdioServerParameters(command=sys.executable, args=["-m", "pyinspect", "serve"], env={**os.environ})
    line = marker_line("DebuggeeLoop", "tick")
    samples: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        async with Client(server) as client:
            await call(client, "breakpoint_set", file=str(target_source("DebuggeeLoop")), line=line)
            await call(client, "debug_launch", program=str(target_dll("DebuggeeLoop")), args=[f"{folder}/c.txt"])
            assert (await call(client, "debug_wait", timeout_ms=30000))["state"] == "paused"
            samples.append(("start", *rss_mb()))
            started = time.monotonic()
            for i in range(calls):
                tool, arguments = INSPECTIONS[i % len(INSPECTIONS)]
                await call(client, tool, **arguments)
                if (i + 1) % 200 == 0:
                    samples.append((f"{i + 1} calls", *rss_mb()))
            inspect_s = time.monotonic() - started
            lost, started = 0, time.monotonic()
            for i in range(hits):
                stop = await call(client, "debug_continue", timeout_ms=10000)
                if stop["state"] != "paused" or stop.get("location", {}).get("line") != line:
                    lost += 1
                await call(client, "evaluate", expression="counter")
                if (i + 1) % 50 == 0:
                    samples.append((f"{i + 1} hits", *rss_mb()))
            hits_s = time.monotonic() - started
            await call(client, "debug_disconnect")
    print(f"{calls} inspection calls at one stop: {inspect_s:.1f} s ({1000 * inspect_s / calls:.1f} ms/call)")
    print(f"{hits} breakpoint hits: {hits_s:.1f} s ({1000 * hits_s / hits:.0f} ms/cycle), lost stops: {lost}")
    print(f"{'when':>12} {'server MB':>10} {'adapter MB':>11}")
    for when, server_mb, adapter_mb in samples:
        print(f"{when:>12} {server_mb:10.1f} {adapter_mb:11.1f}")
    warm, last = samples[1], samples[-1]  # the first inspection loads symbols and JITs the readers
    print(f"RSS last / after warm-up ({warm[0]}): server {last[1] / warm[1]:.2f}x, adapter {last[2] / warm[2]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--hits", type=int, default=200)
    options = parser.parse_args()
    anyio.run(run, options.calls, options.hits)


if __name__ == "__main__":
    main()
