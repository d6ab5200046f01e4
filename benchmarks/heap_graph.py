"""Heap graph snapshots at 1M and 10M (and 50M) objects: pyinspect versus plain ClrMD, side by side.

    .venv/bin/python benchmarks/heap_graph.py [--objects 1000000 10000000 50000000]

For each size, starts HeapTruth in fill mode (N small live objects in one array), then:
- a plain C# ClrMD heap walk of the same heap (benchmarks/HeapWalkBaseline, best of 2);
- pyinspect's graph snapshot (one walk, roots, Semi-NCA dominators, retained sizes):
  seconds, objects/s, bytes per object (the graph's arrays, and the process's RSS growth);
- one retention path to an object in the middle of the heap, beside ClrMD's GCRoot;
- saving two snapshots and diffing them;
- where the build's time went (phases), and the machine's load average before each size.
Goals (issue 17): 10M objects < 10 s and < 100 B/object; a path < 1 s; a diff < 5 s.
"""

from __future__ import annotations

import argparse
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

from heap_walk import baseline_runs, build_baseline
from support.targets import target_dll, wait_for_file

from pyinspect.heap import HeapReader
from pyinspect.heap.helper_calls import TARGET
from pyinspect.heap.snapshot import Snapshot, diff
from pyinspect.targets.dotnet_paths import dotnet_host


def measure(reader: HeapReader, tmp: Path) -> dict[str, Any]:
    """Build the graph, time a path and GCRoot on the same object, save and diff snapshots."""
    rss = psutil.Process().memory_info().rss
    reader.flush()
    start = time.perf_counter()
    graph = reader.graph()
    cold = time.perf_counter() - start
    rss_growth = psutil.Process().memory_info().rss - rss
    del graph
    reader.flush()
    start = time.perf_counter()
    graph = reader.graph()  # warm: the helper's code is jitted now
    built = time.perf_counter() - start
    phases = graph.build_times()
    summary = graph.summary()
    item = graph.instances("HeapTruth.Item", summary.objects // 4, 1)[0].address
    start = time.perf_counter()
    found = graph.paths(item, 1)
    path_seconds = time.perf_counter() - start
    # ClrMD's GCRoot on the same target, through the reader's own worker thread
    gcroot = float(reader.call("GcRootTiming", "FirstPathSeconds", TARGET, int(item, 16)))
    a, b = graph.snapshot().save(tmp / "a.snap"), graph.snapshot().save(tmp / "b.snap")
    start = time.perf_counter()
    rows = diff(Snapshot.load(a), Snapshot.load(b))
    diff_seconds = time.perf_counter() - start
    return {"objects": summary.objects, "seconds": built, "cold": cold, "array_bytes": graph.array_bytes(), "rss": rss_growth,
            "path": path_seconds, "path_steps": len(found.paths[0].steps), "gcroot": gcroot,
            "diff": diff_seconds, "diff_rows": len(rows), "phases": phases}


def run_size(count: int, baseline: Path) -> dict[str, Any]:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        ready = Path(folder) / "ready.json"
        proc = subprocess.Popen([str(dotnet_host()), str(target_dll("HeapTruth")), "fill", str(count), str(ready)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            wait_for_file(ready, timeout=600, proc=proc)
            plain = min(baseline_runs(baseline, proc.pid, 2), key=lambda r: r["seconds"])
            with HeapReader.attach(proc.pid) as reader:
                ours = measure(reader, Path(folder))
        finally:
            proc.kill()
            proc.wait(timeout=30)
    return {**ours, "plain": plain["seconds"], "plain_objects": plain["objects"], "load": load}


def report(rows: list[dict[str, Any]]) -> None:
    print(f"{'objects':>12} {'plain walk s':>12} {'cold s':>7} {'graph s':>8} {'ratio':>6} {'objects/s':>12} "
          f"{'B/obj arrays':>12} {'B/obj RSS':>10} {'path s':>8} {'GCRoot s':>9} {'GCRoot/path':>11} {'diff s':>7}")
    for r in rows:
        n = r["objects"]
        ratio = r["seconds"] / r["plain"]
        vs = r["gcroot"] / r["path"] if r["gcroot"] > 0 else float("nan")
        print(f"{n:>12,} {r['plain']:>12.3f} {r['cold']:>7.3f} {r['seconds']:>8.3f} {ratio:>5.2f}x {n / r['seconds']:>12,.0f} "
              f"{r['array_bytes'] / n:>12.1f} {r['rss'] / n:>10.1f} {r['path']:>8.4f} {r['gcroot']:>9.4f} "
              f"{vs:>10.1f}x {r['diff']:>7.4f}")
    for r in rows:
        phases = ", ".join(f"{name} {seconds:.2f}" for name, seconds in r["phases"].items())
        print(f"{r['objects']:>12,} phases (s): {phases} (load average {r['load']:.1f} before)")
    print(f"load average (1, 5, 15 min) at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("cold = the first graph in the process (includes jitting the helper); graph s = the second;")
    print("ratio = graph seconds / plain ClrMD walk seconds (the graph also reads every reference,")
    print("the roots, and computes dominators and retained sizes); GCRoot/path > 1 means ours is faster.")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objects", type=int, nargs="+", default=[1_000_000, 10_000_000])
    args = parser.parse_args()
    baseline = build_baseline()
    rows = []
    for count in args.objects:
        rows.append(run_size(count, baseline))
        print(f"measured {count:,}", file=sys.stderr)
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
