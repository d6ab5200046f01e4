"""Heap statistics over 10 million objects: pyinspect versus a plain C# ClrMD loop.

    .venv/bin/python benchmarks/heap_walk.py [--objects N] [--runs R]

Starts the HeapTruth debuggee in fill mode (N small live objects), builds and runs
benchmarks/HeapWalkBaseline (the same walk written directly against ClrMD), then times
pyinspect's HeapReader.stats() on the same process. Both attach without suspending and
flush caches before each walk; the best of R runs counts. Prints objects/s and the ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.targets import target_dll, wait_for_file

from pyinspect.heap import HeapReader
from pyinspect.targets.dotnet_paths import dotnet_host
from pyinspect.targets.runtimes import runtime_of

BASELINE = ROOT / "benchmarks" / "HeapWalkBaseline"


def build_baseline() -> Path:
    out = BASELINE / "bin" / "Release"
    subprocess.run([str(dotnet_host()), "build", str(BASELINE), "-c", "Release", "-nologo", "-v", "q",
                    "-o", str(out)], check=True, capture_output=True)
    return out / "HeapWalkBaseline.dll"


def baseline_runs(dll: Path, pid: int, runs: int) -> list[dict[str, float]]:
    result = subprocess.run([str(dotnet_host()), str(dll), str(pid), runtime_of(pid).dac_path or "", str(runs)],
                            check=True, capture_output=True, text=True, timeout=900)
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def pyinspect_runs(pid: int, runs: int) -> list[dict[str, float]]:
    results = []
    with HeapReader.attach(pid) as reader:
        for _ in range(runs):
            reader.flush()
            start = time.perf_counter()
            stats = reader.stats()
            seconds = time.perf_counter() - start
            results.append({"objects": sum(s.count for s in stats), "types": len(stats), "seconds": seconds})
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objects", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    dll = build_baseline()
    with tempfile.TemporaryDirectory() as folder:
        ready = Path(folder) / "ready.json"
        proc = subprocess.Popen([str(dotnet_host()), str(target_dll("HeapTruth")), "fill", str(args.objects), str(ready)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            wait_for_file(ready, timeout=300, proc=proc)
            plain = min(baseline_runs(dll, proc.pid, args.runs), key=lambda r: r["seconds"])
            ours = min(pyinspect_runs(proc.pid, args.runs), key=lambda r: r["seconds"])
        finally:
            proc.kill()
            proc.wait(timeout=30)
    if plain["objects"] != ours["objects"]:
        print(f"object counts differ: C# {plain['objects']}, pyinspect {ours['objects']}", file=sys.stderr)
        return 1
    plain_rate = plain["objects"] / plain["seconds"]
    our_rate = ours["objects"] / ours["seconds"]
    print(f"heap objects walked: {int(ours['objects']):,} ({int(ours['types'])} types), best of {args.runs} runs")
    print(f"plain C# ClrMD loop: {plain['seconds']:.3f} s, {plain_rate:,.0f} objects/s")
    print(f"pyinspect stats():   {ours['seconds']:.3f} s, {our_rate:,.0f} objects/s")
    print(f"ratio pyinspect / plain C#: {our_rate / plain_rate:.2f}x (target 0.80x or better)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
