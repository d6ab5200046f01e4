"""The heap walk at memory speed: plain ClrMD, our walk, and the whole graph, side by side.

    .venv/bin/python benchmarks/heap_walk_speed.py [--objects 1000000 10000000] [--shapes app array]

For each shape and size, starts HeapTruth holding about N objects, either shaped like an
application's heap (`app`: a dictionary of customers, each with a name and a list of
orders, each order with a string, a decimal, a small array and a back reference; plus
LOH byte buffers and LOH arrays of references) or N small objects in one array
(`array`), then measures on the same process:
- plain ClrMD: benchmarks/HeapWalkBaseline in graph mode, a separate C# program that
  walks every object and every reference once and lists the roots (one run);
- our walk: every object and reference through PyInspect.Heap's SegmentWalker (the
  helper's HeapWalkCheck.Time), best of 2 (the first includes jitting);
- heap stats (the same walk without references) and the whole graph (walk, roots,
  dominators, retained sizes: HeapReader.graph()), second of two runs;
with objects/s and the graph's bytes per object. Prints the load average next to each.
Goals (issue 27): the whole graph of a 10M app-shaped heap faster than the plain ClrMD
walk; our walk alone at least 10x ClrMD's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from heap_walk import build_baseline
from support.targets import target_dll, wait_for_file

from pyinspect.heap import HeapReader
from pyinspect.heap.helper_calls import TARGET
from pyinspect.targets.dotnet_paths import dotnet_host
from pyinspect.targets.runtimes import runtime_of


def plain_clrmd(dll: Path, pid: int) -> dict[str, float]:
    result = subprocess.run([str(dotnet_host()), str(dll), str(pid), runtime_of(pid).dac_path or "", "1", "graph"],
                            check=True, capture_output=True, text=True, timeout=3600)
    rows: list[dict[str, float]] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return rows[0]


def our_walk(reader: HeapReader, runs_wanted: int) -> dict[str, float]:
    runs = []
    for _ in range(runs_wanted):
        reader.flush()
        text = str(reader.call("HeapWalkCheck", "Time", TARGET, "ours"))
        runs.append(json.loads(text))
    best: dict[str, float] = min(runs, key=lambda r: r["seconds"])
    return best


def timed(action: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def measure(reader: HeapReader, once: bool) -> dict[str, Any]:
    walk = our_walk(reader, 1 if once else 2)
    reader.flush()
    _, stats_seconds = timed(reader.stats)
    reader.flush()
    graph, cold = timed(reader.graph)
    graph_seconds = cold
    if not once:
        del graph
        reader.flush()
        graph, graph_seconds = timed(reader.graph)
    rss = psutil.Process().memory_info().rss
    summary = graph.summary()
    return {"walk": walk, "stats": stats_seconds, "graph": graph_seconds, "cold": cold, "phases": graph.build_times(),
            "array_bytes": graph.array_bytes(), "graph_objects": summary.objects, "rss": rss,
            "unreadable": summary.unreadable_objects, "peak": peak_rss()}


def peak_rss() -> int:
    """This process's peak resident memory (VmHWM), in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def run(shape: str, count: int, baseline: Path | None, once: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        ready = Path(folder) / "ready.json"
        mode = "app" if shape == "app" else "fill"
        proc = subprocess.Popen([str(dotnet_host()), str(target_dll("HeapTruth")), mode, str(count), str(ready)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            wait_for_file(ready, timeout=1800, proc=proc)
            target_rss = psutil.Process(proc.pid).memory_info().rss
            load = os.getloadavg()[0]
            plain = plain_clrmd(baseline, proc.pid) if baseline is not None else None
            with HeapReader.attach(proc.pid) as reader:
                ours = measure(reader, once)
            load_after = os.getloadavg()[0]
        finally:
            proc.kill()
            proc.wait(timeout=30)
    return {"shape": shape, "count": count, "plain": plain, "target_rss": target_rss, "load": load,
            "load_after": load_after, **ours}


def report(rows: list[dict[str, Any]]) -> None:
    print(f"{'shape':>5} {'objects':>11} {'refs':>11} {'ClrMD walk s':>12} {'+roots s':>8} {'obj/s':>10} {'our walk s':>10} "
          f"{'obj/s':>11} {'walk x':>7} {'stats s':>8} {'graph s':>8} {'graph/ClrMD':>11} {'B/obj':>6} {'load':>9}")
    for r in rows:
        w = r["walk"]
        p = r["plain"] or {"walkSeconds": float("nan"), "seconds": float("nan"), "objects": float("nan")}
        n = w["objects"]
        print(f"{r['shape']:>5} {n:>11,} {w['references']:>11,} {p['walkSeconds']:>12.2f} {p['seconds']:>8.2f} "
              f"{p['objects'] / p['walkSeconds']:>10,.0f} {w['seconds']:>10.3f} {n / w['seconds']:>11,.0f} "
              f"{p['walkSeconds'] / w['seconds']:>6.1f}x {r['stats']:>8.2f} "
              f"{r['graph']:>8.2f} {r['graph'] / p['seconds']:>10.2f}x {r['array_bytes'] / r['graph_objects']:>6.1f} "
              f"{r['load']:>4.1f}/{r['load_after']:<4.1f}")
    for r in rows:
        phases = ", ".join(f"{name} {seconds:.2f}" for name, seconds in r["phases"].items())
        print(f"{r['shape']:>5} {r['count']:>11,} graph phases (s): {phases}; cold graph {r['cold']:.2f} s; "
              f"debuggee RSS {r['target_rss'] / 2**30:.2f} GiB, ours with the graph {r['rss'] / 2**30:.2f} GiB (peak {r['peak'] / 2**30:.2f}); "
              f"{clrmd_counts(r['plain'])}; unreadable {r['unreadable']}")
    print("ClrMD walk s = a plain ClrMD program reading every object and every reference once; +roots s = the same")
    print("and listing every root. walk x = ClrMD walk s / our walk s (the same objects and references);")
    print("graph/ClrMD = our whole graph (walk, roots, dominators, retained sizes) / ClrMD's walk + roots: < 1 is")
    print("faster than ClrMD merely walking. B/obj = the graph's arrays per object. load = 1-min load average before/after.")


def clrmd_counts(plain: dict[str, float] | None) -> str:
    if plain is None:
        return "ClrMD not run (--no-clrmd)"
    return f"ClrMD counted {int(plain['objects']):,} objects, {int(plain['references']):,} refs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objects", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--shapes", nargs="+", default=["app", "array"], choices=["app", "array"])
    parser.add_argument("--no-clrmd", action="store_true", help="skip the plain ClrMD walk (for 100M objects)")
    parser.add_argument("--once", action="store_true", help="one walk and one (cold) graph: for 100M objects")
    args = parser.parse_args()
    baseline = None if args.no_clrmd else build_baseline()
    rows = []
    for count in args.objects:
        for shape in args.shapes:
            rows.append(run(shape, count, baseline, args.once))
            print(f"measured {shape} {count:,}", file=sys.stderr)
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
