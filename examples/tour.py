"""A five-minute tour of pyinspect on examples/DemoShop (run by `python3 build.py demo`).

DemoShop prices a batch of 250 orders every 50 ms and keeps every batch's report in a
static cache by mistake. The tour debugs it and then finds that leak, the way a user
would in a notebook: launch under the debugger, stop at a breakpoint, read the stack, read
a collection straight from memory, list the heap's top types, diff two heap snapshots and
ask why the growing type is alive. Each step checks its answer against what the program
does and stops the tour with exit status 1 when one is wrong.
"""

from __future__ import annotations

import json
import sys
import time
from decimal import Decimal
from pathlib import Path

import pyinspect

ROOT = Path(__file__).resolve().parent
PROGRAM = ROOT / "_build" / "DemoShop" / "DemoShop.dll"
SOURCE = ROOT / "DemoShop" / "Program.cs"
GROWING_TYPE = "DemoShop.Order"
HOLDER_TYPE = "DemoShop.OrderReport"


class TourFailed(Exception):
    """A step's answer was not what DemoShop does."""


def check(condition: bool, what: str) -> None:
    if not condition:
        raise TourFailed(what)


def step(title: str) -> None:
    print(f"\n== {title}", flush=True)


def marked_line(marker: str) -> int:
    lines = SOURCE.read_text().splitlines()
    return next(number for number, text in enumerate(lines, 1) if f"// tour: {marker}" in text)


def batches_done(status: Path) -> int:
    text = status.read_text().strip() if status.exists() else ""
    return int(text) if text.isdigit() else 0


def debug_a_batch(dbg: pyinspect.Debugger, line: int) -> None:
    step(f"1. launched {PROGRAM.name} under the debugger; breakpoint at Program.cs:{line}")
    state = dbg.wait(60)
    where = state.location
    check(state.state == "paused" and where is not None and where.line == line,
          f"expected a stop at line {line}, got {state}")
    assert where is not None
    print(f"paused in {where.function} at {Path(where.file or '').name}:{where.line} ({state.stop_reason})")

    step("2. the stack")
    stack = dbg.stack(max_frames=5)
    print(stack[["function", "line"]].to_string(index=False))
    check("Price" in stack.iloc[0]["function"], "the top frame is not Pricing.Price")

    step("3. the orders list, analysed from memory in one call")
    orders = dbg.collection("orders", max_preview_items=3)
    print(f"{orders.collection_type}: {orders.count} x {orders.element_type}, first: "
          f"{orders.first_elements[0].value if orders.first_elements else '-'}")
    check(orders.count == 250, f"expected 250 orders, read {orders.count}")
    check(dbg.eval("gross") == "0", "gross is computed on the line the breakpoint stops before")
    dbg.step("over")
    net, gross = dbg.eval("net"), dbg.eval("gross")
    print(f"one step over: net = {net}, gross = net * (1 + taxRate) = {gross}")
    check(Decimal(gross) == Decimal(net) * Decimal("1.2"), f"gross {gross} is not net {net} * 1.2")


def find_the_leak(dbg: pyinspect.Debugger, status: Path) -> None:
    pid = dbg.state.pid
    check(pid is not None, "no process id")
    with pyinspect.open_heap(pid or 0) as heap:
        step("4. the heap's top types (live process, read through ClrMD)")
        dbg.pause()
        top = heap.stats(progress=False).head(5)
        print(top.to_string(index=False))
        check(len(top) == 5 and int(top["total_size"].iloc[0]) > 0, "no heap statistics")

        step("5. a leak: two snapshots a second apart, diffed")
        before, first_batch = heap.graph(refresh=True, progress=False).snapshot(), batches_done(status)
        dbg.resume(wait=False)
        deadline = time.monotonic() + 30
        while batches_done(status) < first_batch + 10:
            check(time.monotonic() < deadline, "DemoShop made no new batches")
            time.sleep(0.1)
        dbg.pause()
        grown = pyinspect.diff(before, heap.graph(refresh=True, progress=False).snapshot())
        print(grown.head(3)[["type", "count_delta", "size_delta"]].to_string(index=False))
        check(grown.iloc[0]["type"] == GROWING_TYPE and int(grown.iloc[0]["count_delta"]) >= 10 * 250,
              f"expected {GROWING_TYPE} to grow most, by 250 per batch made")

        step(f"6. why do the orders stay alive? a {HOLDER_TYPE}'s path to its root")
        one = heap.instances(HOLDER_TYPE, count=1).iloc[0]["address"]
        paths = heap.path_to_root(one)
        root = paths.paths[0].root
        print(f"{HOLDER_TYPE} at {one} <- {root.kind} {root.name}: "
              f"{' -> '.join(s.type for s in paths.paths[0].steps)}")
        check(root.kind == "static" and "ReportCache.Reports" in root.name,
              f"expected the static ReportCache.Reports to hold it, got {root.kind} {root.name}")
        dbg.resume(wait=False)


def main() -> int:
    if not PROGRAM.exists():
        print(f"tour: {PROGRAM} is not built; run `python3 build.py` first", file=sys.stderr)
        return 1
    status = Path(f"/tmp/pyinspect-demo-{time.time_ns()}")
    line = marked_line("priced")
    try:
        with pyinspect.launch(str(PROGRAM), [str(status)], breakpoints=[(str(SOURCE), line)]) as dbg:
            debug_a_batch(dbg, line)
            dbg.remove_breakpoint(int(dbg.breakpoints()["id"].iloc[0]))
            dbg.resume(wait=False)
            find_the_leak(dbg, status)
    except (TourFailed, pyinspect.PyInspectError) as exc:
        print(f"\ntour: failed: {exc}", file=sys.stderr)
        return 1
    finally:
        status.unlink(missing_ok=True)
    step("7. give it to an AI agent: register the MCP server with your MCP host")
    server = Path(sys.executable).with_name("pyinspect")
    print(json.dumps({"mcpServers": {"pyinspect": {"command": str(server), "args": ["serve"]}}}))
    print("\nThe tour is done: every answer above was checked against what DemoShop does.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
