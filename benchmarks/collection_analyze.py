"""collection_analyze over MCP on a List<int> of 1,000,000 versus DAP `variables` paging
versus one DAP `evaluate` per element, all against the same stopped process.

    .venv/bin/python benchmarks/collection_analyze.py [--items N] [--runs R] [--page P] [--sample S]

Launches MemoryTruth (`big N`) under our adapter through a Session, stops at `// @bp
big_ready`, then times (best of R): collection_analyze through the MCP in-memory client
(complete statistics over every element, heap caches flushed before each run); reading
the list's backing array through `variables` with start/count pages of P items (all N
items when that takes under a minute on a first sample, else extrapolated from the
sample); and `evaluate` of `numbers._items[i]` on S items spread over the list,
extrapolated to N. Prints seconds, items/s and the ratios; checks the statistics
against the debuggee's own (LINQ) numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mcp import Client
from support.targets import marker_line, target_dll, target_source, wait_for_file

from pyinspect.server import create_server
from pyinspect.session.debug_session import Session


def stop_in_big_list(session: Session, items: int, folder: Path) -> dict[str, Any]:
    session.set_breakpoint(str(target_source("MemoryTruth")), marker_line("MemoryTruth", "big_ready"))
    ready = folder / "ready.json"
    session.launch(str(target_dll("MemoryTruth")), ["big", str(items), str(ready)])
    state = session.wait(120.0)
    if state.state != "paused":
        raise SystemExit(f"the debuggee did not stop at big_ready: {state}")
    wait_for_file(ready, timeout=30)
    truth: dict[str, Any] = json.loads(ready.read_text())["truth"]
    return truth


async def measure(session: Session, args: argparse.Namespace) -> dict[str, Any]:
    """All three measurements inside one MCP client: the server's lifespan ends the
    session when the client closes."""
    best, answer = float("inf"), {}
    async with Client(create_server(session)) as client:
        await client.call_tool("collection_analyze", {"expression": "numbers"})  # loads ClrMD once
        for _ in range(args.runs):
            session.heap().flush()
            start = time.perf_counter()
            result = await client.call_tool("collection_analyze", {"expression": "numbers", "timeout_ms": 60000})
            best = min(best, time.perf_counter() - start)
            answer = dict(result.structured_content or {})
        paging, paged, extrapolated = paging_seconds(session, args.items, args.page)
        evaluating = evaluate_seconds(session, args.items, args.sample)
    return {"mcp": best, "answer": answer, "paging": paging, "paged": paged, "extrapolated": extrapolated,
            "evaluate": evaluating}


def paging_seconds(session: Session, items: int, page: int) -> tuple[float, int, bool]:
    """Seconds to page every item of the backing array (or extrapolated), items read, extrapolated?"""
    reference = session.resolve_value("numbers._items").variables_reference
    client = session.client

    def read(count: int) -> tuple[float, int]:
        start, got = time.perf_counter(), 0
        for first in range(0, count, page):
            got += len(client.variables(reference, first, min(page, count - first)))
        return time.perf_counter() - start, got

    sample = min(items, 20 * page)
    seconds, got = read(sample)
    if seconds * items / sample < 60:
        seconds, got = read(items)
        return seconds, got, False
    return seconds * items / sample, got, True


def evaluate_seconds(session: Session, items: int, sample: int) -> float:
    thread = session.current_thread()
    assert thread is not None
    frame = session.stop_reader.frame_id(thread, 0)
    step = max(1, items // sample)
    start = time.perf_counter()
    for index in range(0, step * sample, step):
        session.client.evaluate(f"numbers._items[{index}]", frame)
    return (time.perf_counter() - start) * items / sample


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=10_000)
    args = parser.parse_args()
    session = Session()
    with tempfile.TemporaryDirectory() as folder:
        try:
            truth = stop_in_big_list(session, args.items, Path(folder))
            measured = asyncio.run(measure(session, args))
        finally:
            session.close()
    summary = measured["answer"].get("summary", {})
    if summary.get("count") != truth["count"] or summary.get("numericStats") != truth["numericStats"]:
        raise SystemExit(f"collection_analyze disagrees with the debuggee: {measured['answer']} vs {truth}")
    mcp, paging, evaluating = measured["mcp"], measured["paging"], measured["evaluate"]
    paged, extrapolated = measured["paged"], measured["extrapolated"]
    n = args.items
    print(f"List<int> of {n:,} items, statistics {summary['numericStats']} (equal to LINQ's)")
    print(f"collection_analyze over MCP  {mcp:10.4f} s  {n / mcp:14,.0f} items/s  (best of {args.runs})")
    how = f"extrapolated from {paged:,} items" if extrapolated else f"all {paged:,} items"
    print(f"DAP variables paging ({args.page}/page) {paging:10.2f} s  {n / paging:14,.0f} items/s  ({how})")
    print(f"DAP evaluate per element     {evaluating:10.2f} s  {n / evaluating:14,.0f} items/s  "
          f"(extrapolated from {args.sample:,})")
    print(f"ratio: collection_analyze is {paging / mcp:,.0f}x faster than paging, "
          f"{evaluating / mcp:,.0f}x faster than evaluate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
