"""The MCP heap tools on a leaking process, beside the heap reader they stand on.

    .venv/bin/python benchmarks/heap_tools.py [--batches 100]

Starts LeakStory and makes it leak `batches` x 10,000 LeakedSession objects, then over
the in-memory MCP client: heap_attach; the first heap_stats (walks the heap and builds
the graph) beside HeapReader.graph() called directly (what the tool layer costs); the
next heap_stats and the other questions on the graph it reuses; heap_snapshot twice and
heap_diff. Prints seconds and the ratios side by side.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "server"))

from mcp import Client
from mcp_calls import call_ok
from support.targets import running_target, wait_for_file

from pyinspect.heap import HeapReader
from pyinspect.server import create_server


def leak(proc: Any, status: Path, batches: int) -> int:
    for _ in range(batches):
        proc.stdin.write(b"leak\n")
    proc.stdin.flush()
    want = batches * json.loads(status.read_text())["batch"]
    deadline = time.monotonic() + 600
    while json.loads(status.read_text())["held"] != want:
        if time.monotonic() > deadline:
            raise SystemExit("LeakStory did not finish leaking")
        time.sleep(0.1)
    return want


async def timed(action: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await action()
    return time.perf_counter() - start, result


async def measure(pid: int) -> dict[str, float]:
    seconds: dict[str, float] = {}
    async with Client(create_server()) as client:
        seconds["heap_attach"], _ = await timed(lambda: call_ok(client, "heap_attach", pid=pid))
        seconds["heap_stats, first (builds the graph)"], _ = await timed(lambda: call_ok(client, "heap_stats"))
        seconds["heap_stats, again (graph reused)"], _ = await timed(lambda: call_ok(client, "heap_stats"))
        seconds["heap_instances (100)"], page = await timed(
            lambda: call_ok(client, "heap_instances", type_name="LeakStory.LeakedSession"))
        seconds["heap_retention"], _ = await timed(
            lambda: call_ok(client, "heap_retention", address=page["instances"][-1]["address"]))
        seconds["heap_retained (top 20)"], _ = await timed(lambda: call_ok(client, "heap_retained"))
        seconds["heap_snapshot"], _ = await timed(lambda: call_ok(client, "heap_snapshot"))
        await call_ok(client, "heap_snapshot")
        seconds["heap_diff"], _ = await timed(lambda: call_ok(client, "heap_diff"))
    reader = HeapReader.attach(pid)
    try:
        start = time.perf_counter()
        reader.graph()
        seconds["HeapReader.graph() directly"] = time.perf_counter() - start
    finally:
        reader.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=100, help="10,000 leaked objects each")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        status = Path(folder) / "status.json"
        with running_target("LeakStory", str(status)) as proc:
            wait_for_file(status, timeout=60, proc=proc)
            held = leak(proc, status, options.batches)
            seconds = anyio.run(measure, proc.pid)
    print(f"LeakStory holding {held:,} leaked objects")
    for name, value in seconds.items():
        print(f"  {name:<40} {value:8.3f} s")
    first = seconds["heap_stats, first (builds the graph)"]
    print(f"first heap_stats / HeapReader.graph(): {first / seconds['HeapReader.graph() directly']:.2f}x "
          f"(the tool layer's cost on a graph build)")
    print(f"first heap_stats / next heap_stats:    {first / seconds['heap_stats, again (graph reused)']:.0f}x "
          "(what reusing the graph saves)")


if __name__ == "__main__":
    main()
