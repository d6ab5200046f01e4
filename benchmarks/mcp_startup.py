"""MCP server start to first answer, side by side with what it cannot go below.

    .venv/bin/python benchmarks/mcp_startup.py [--rounds N]

Each round, interleaved so that machine load hits every column alike:
- python: spawn `python -c pass` to exit (the interpreter alone);
- MCP SDK import: spawn `python -c "import mcp.server.mcpserver"` to exit (the floor:
  the server cannot answer before its SDK is loaded);
- imports, all CLI areas: `pyinspect.cli.app` (every area) plus the server module, as
  `pyinspect serve` loaded them before it registered only its own area;
- imports, serve area only: what `pyinspect serve` loads before its SDK can serve;
- spawn `python -m pyinspect serve` through the MCP client (the SDK's own, which opens
  with `server/discover`; a handshake-era host sends `initialize`, answered alike) and
  time, from the spawn, its first answer, the tool list and its first tool call's answer
  (debug_state), as an agent host sees them. Every reply is computed by the SDK in that
  process; nothing is stored between starts.
Prints p50/p95 (ms) per column and the first answer against the SDK floor. The goal
(first answer <= 500 ms on an idle machine) is printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from mcp import Client
from mcp_tools import serve

ROOT = Path(__file__).resolve().parents[1]
GOAL_MS = 500.0
ALL_AREAS = "import pyinspect.cli as c; c.app; import pyinspect.server.app"
SERVE_ONLY = "import pyinspect.cli as c; c.build_app(('serve',)); import pyinspect.server.app"
STARTS = ("first answer", "tools listed", "first tool answer")
COLUMNS = ("python", "MCP SDK import", "imports, all CLI areas", "imports, serve area only", *STARTS)


def spawn_ms(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    return (time.perf_counter() - start) * 1000


async def start_ms() -> list[float]:
    """Spawn to the first answer, to the tool list, to the first tool answer."""
    start = time.perf_counter()
    async with Client(serve()) as client:
        answered = time.perf_counter()
        tools = await client.list_tools()
        listed = time.perf_counter()
        result = await client.call_tool("debug_state", {})
        called = time.perf_counter()
        assert not result.is_error and len(tools.tools) > 30, result
    return [(moment - start) * 1000 for moment in (answered, listed, called)]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    results: dict[str, list[float]] = {name: [] for name in COLUMNS}
    for _ in range(options.rounds):
        results["python"].append(spawn_ms("pass"))
        results["MCP SDK import"].append(spawn_ms("import mcp.server.mcpserver"))
        results["imports, all CLI areas"].append(spawn_ms(ALL_AREAS))
        results["imports, serve area only"].append(spawn_ms(SERVE_ONLY))
        for name, ms in zip(STARTS, asyncio.run(start_ms()), strict=True):
            results[name].append(ms)
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {options.rounds} rounds")
    print(f"{'':32}{'p50 ms':>10}{'p95 ms':>10}")
    for name in COLUMNS:
        print(f"{name:32}{statistics.median(results[name]):10.0f}{percentile(results[name], 0.95):10.0f}")
    p50 = {name: statistics.median(samples) for name, samples in results.items()}
    floor = p50["MCP SDK import"]
    print(f"first answer / MCP SDK import: {p50['first answer'] / floor:.2f}x; "
          f"first answer - MCP SDK import: {p50['first answer'] - floor:.0f} ms; "
          f"all areas / serve only: {p50['imports, all CLI areas'] / p50['imports, serve area only']:.2f}x")
    first = p50["first answer"]
    print(f"goal: first answer <= {GOAL_MS:.0f} ms on an idle machine: {'met' if first <= GOAL_MS else 'NOT met'} "
          "(here, at this load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
