"""The seed tools' latencies over STDIO, as an MCP client sees them, and server start to
first answer.

    .venv/bin/python benchmarks/mcp_tools.py [--starts S] [--hits H] [--repeats R]

Server start: S times, spawn `python -m pyinspect serve` through the mcp client and time
spawn to the handshake's answer (`server/discover` from this client, `initialize` from a
handshake-era host) and to the first tool answer (debug_state); every reply comes from
the SDK in that process (benchmarks/mcp_startup.py breaks the start down).

Tools: one `pyinspect serve` subprocess runs AdapterBench under our adapter, stopped H
times at `// @bp deep` (50 frames down, a 200-field object in scope). At each stop every
seed tool is called once right after the stop ("cold": the adapter is asked) and then R
more times ("warm": the session's per-stop cache answers). threads_list, stacktrace_get
(20 frames, top frame's arguments), variables_get of frame 1 (not read by stacktrace_get,
so "cold" asks the adapter), evaluate (`wide.F123`). Prints p50/p95 per tool against the targets (p50 < 50 ms per
tool, handshake answered < 500 ms, first tool answer < 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mcp import Client, StdioServerParameters
from support.targets import marker_line, target_dll, target_source

TARGET = "AdapterBench"
TOOLS: dict[str, dict[str, Any]] = {
    "threads_list": {},
    "stacktrace_get": {},
    "variables_get": {"frame_index": 1},
    "evaluate": {"expression": "wide.F123"},
}
TOOL_TARGET_MS = 50.0
TARGETS_MS = {"start to initialize answer": 500.0, "start to first tool answer": 2000.0}


def serve() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "pyinspect", "serve"], env={**os.environ})


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def answer(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    data = result.structured_content
    if result.is_error or not isinstance(data, dict):
        raise SystemExit(f"{tool} failed: {result.content}")
    return data


async def timed(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], float]:
    start = time.perf_counter()
    data = await answer(client, tool, arguments)
    return data, (time.perf_counter() - start) * 1000


async def server_starts(starts: int, results: dict[str, list[float]]) -> None:
    for _ in range(starts):
        start = time.perf_counter()
        async with Client(serve()) as client:
            results["start to initialize answer"].append((time.perf_counter() - start) * 1000)
            state = await answer(client, "debug_state", {})
            results["start to first tool answer"].append((time.perf_counter() - start) * 1000)
            assert state["state"] == "not_started", state


def check(tool: str, data: dict[str, Any]) -> None:
    """Each answer must be the real one, or the timing means nothing."""
    if tool == "threads_list":
        assert any(t["is_current"] for t in data["threads"]), data
    elif tool == "stacktrace_get":
        assert len(data["frames"]) == 20 and data["frames"][0]["function"] == "Recurse", data["frames"][0]
    elif tool == "variables_get":
        assert {"depth", "stampFile", "wide"} <= {v["name"] for v in data["variables"]}, data
    else:
        assert data["result"] == "123", data


async def tool_latencies(hits: int, repeats: int, stamp: Path, results: dict[str, list[float]]) -> None:
    async with Client(serve()) as client:
        await answer(client, "breakpoint_set", {"file": str(target_source(TARGET)),
                                                "line": marker_line(TARGET, "deep")})
        await answer(client, "debug_launch", {"program": str(target_dll(TARGET)), "args": [str(stamp), str(hits)]})
        for hit in range(hits):
            state = await answer(client, "debug_wait", {"timeout_ms": 60000})
            assert state["state"] == "paused" and state["stop_reason"] == "breakpoint", state
            for tool, arguments in TOOLS.items():
                data, ms = await timed(client, tool, arguments)
                check(tool, data)
                results[f"{tool} (cold)"].append(ms)
                for _ in range(repeats):
                    data, ms = await timed(client, tool, arguments)
                    check(tool, data)
                    results[f"{tool} (warm)"].append(ms)
            if hit < hits - 1:
                await answer(client, "debug_continue", {"wait": False})
        await answer(client, "debug_disconnect", {})


def report(results: dict[str, list[float]]) -> None:
    print(f"{'measure':30} {'n':>4} {'p50 ms':>9} {'p95 ms':>9} {'mean ms':>9}  target")
    for name, samples in results.items():
        target = TARGETS_MS.get(name, TOOL_TARGET_MS)
        p50 = percentile(samples, 0.5)
        verdict = f"p50 < {target:.0f} ms: " + ("met" if p50 < target else "MISSED")
        print(f"{name:30} {len(samples):4d} {p50:9.2f} {percentile(samples, 0.95):9.2f} "
              f"{statistics.fmean(samples):9.2f}  {verdict}")


async def run(options: argparse.Namespace) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {"start to initialize answer": [], "start to first tool answer": []}
    for tool in TOOLS:
        results[f"{tool} (cold)"] = []
        results[f"{tool} (warm)"] = []
    await server_starts(options.starts, results)
    with tempfile.TemporaryDirectory() as folder:
        await tool_latencies(options.hits, options.repeats, Path(folder) / "stamp.txt", results)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--hits", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=10)
    options = parser.parse_args()
    report(asyncio.run(run(options)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
