"""Production-size heaps: the whole graph of an app-shaped heap, its time and memory per object.

    .venv/bin/python benchmarks/heap_scale.py --objects 10000000 [--sources live dump] [--clrmd]
        [--checkouts /path/to/main .] [--work-folder DIR --memory-limit BYTES]

Starts HeapTruth holding about N objects shaped like an application's heap (customers,
orders, strings, decimals, small arrays, back references, LOH buffers and arrays of
references: 1.3 references per object), writes a createdump dump of it when asked for
`dump`, and analyses each source in a fresh process of its own (the checkout's Python):
open, build the graph (walk, roots, dominators, retained sizes), the top retainers, the
live statistics and one retention path (of the first instance of the largest live type).
Printed per line: wall seconds (open to last answer), the analysing processes' peak resident
memory (VmHWM; a dump is read in a child process: both counted, summed) and their peak
anonymous memory (sampled every 20 ms: the dump's own file mapping and disk-backed arrays
are file pages, not counted there), bytes per object of both beyond what the processes held
once the target was open, and the graph arrays' own peak.
`--clrmd` adds a plain ClrMD program walking every object and reference of the live
process and listing its roots (benchmarks/HeapWalkBaseline), for the sizes where it finishes.
`--checkouts` analyses the same heap with each checkout's code in turn (main before a change, then this).
With `--sources dump` alone, the program ends once its dump is written (for heaps whose
program and analysis do not fit in memory together).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from heap_walk import build_baseline
from heap_walk_speed import plain_clrmd
from support.targets import target_dll, wait_for_file

from pyinspect.heap import create_dump
from pyinspect.targets.dotnet_paths import dotnet_host

# Runs in the analysing process: one source, every phase, one JSON line on stdout.
ANALYSE = r"""
import json, sys, threading, time
sys.path.insert(0, sys.argv[1])
import psutil
source, where, folder, limit = sys.argv[2], sys.argv[3], sys.argv[4] or None, int(sys.argv[5])

def status(pid, key):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0

def processes():  # this one and the child a dump is read in
    me = psutil.Process()
    return [me.pid] + [c.pid for c in me.children(recursive=True)]

peak_anon = {}
def sample():
    while True:
        for pid in processes():
            peak_anon[pid] = max(peak_anon.get(pid, 0), status(pid, "RssAnon"))
        time.sleep(0.02)
threading.Thread(target=sample, daemon=True).start()
start = time.perf_counter()
from pyinspect.heap import HeapReader
reader = HeapReader.attach(int(where)) if source == "live" else HeapReader.open_dump(where)
reader.flush()
opened = time.perf_counter()
pids = processes()
rss_open, anon_open = sum(status(p, "VmRSS") for p in pids), sum(status(p, "RssAnon") for p in pids)
graph = reader.graph(work_folder=folder, memory_limit=limit) if folder or limit else reader.graph()
built = time.perf_counter()
summary = graph.summary()
top = graph.retained(top=5)
live = graph.stats("live", top=10)
child = graph.instances(live[0].type, 0, 1)[0].address
paths = graph.paths(child, 1)
done = time.perf_counter()
try:
    array_peak = int(reader.get(graph._graph, "PeakArrayBytes"))
except Exception:
    array_peak = None
pids = processes()
for p in pids:
    peak_anon[p] = max(peak_anon.get(p, 0), status(p, "RssAnon"))
print(json.dumps({
    "objects": summary.objects, "edges": summary.edges, "live": summary.live_objects,
    "open": opened - start, "graph": built - opened, "queries": done - built, "wall": done - start,
    "phases": graph.build_times(), "rss_open": rss_open, "anon_open": anon_open, "processes": len(pids),
    "peak_anon": sum(peak_anon.get(p, 0) for p in pids), "hwm": sum(status(p, "VmHWM") for p in pids),
    "array_peak": array_peak, "array_now": graph.array_bytes(), "work_folder": getattr(summary, "work_folder", None),
    "path_steps": len(paths.paths[0].steps) if paths.paths else 0, "top": top[0].retained_size,
}))
"""


def analyse(checkout: Path, source: str, where: str, folder: str | None, limit: int) -> dict[str, Any]:
    python = checkout / ".venv" / "bin" / "python"
    proc = subprocess.Popen([str(python), "-c", ANALYSE, str(checkout), source, where, folder or "", str(limit)],
                            stdout=subprocess.PIPE, text=True, cwd=checkout)
    out, _ = proc.communicate(timeout=7200)
    if proc.returncode != 0:
        raise RuntimeError(f"analysis of {source} failed with {proc.returncode}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


@contextmanager
def app_heap(count: int, scratch: Path) -> Iterator[subprocess.Popen[bytes]]:
    """HeapTruth holding about count objects shaped like an application's, once built; killed after."""
    ready = scratch / "ready.json"
    proc = subprocess.Popen([str(dotnet_host()), str(target_dll("HeapTruth")), "app", str(count), str(ready)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        wait_for_file(ready, timeout=3600, proc=proc)
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=60)


def run(count: int, sources: list[str], checkouts: list[Path], clrmd: bool, folder: str | None,
        limit: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="heap-scale-") as scratch, app_heap(count, Path(scratch)) as proc:
        if clrmd:
            plain = plain_clrmd(build_baseline(), proc.pid)
            rows.append({"source": "ClrMD walk+roots (live)", "count": count, "objects": int(plain["objects"]),
                         "edges": int(plain["references"]), "wall": plain["seconds"], "clrmd": True})
        for source in sources:
            where = str(proc.pid)
            if source == "dump":
                start = time.perf_counter()
                where = str(create_dump(proc.pid, Path(scratch) / "heap.dmp", timeout=3600))
                print(f"dump written in {time.perf_counter() - start:.1f} s", file=sys.stderr)
                if "live" not in sources:  # the dump alone: its memory goes to the analysis
                    proc.kill()
                    proc.wait(timeout=60)
            for checkout in checkouts:
                rows.append({"source": source, "count": count, "load": os.getloadavg()[0], "code": checkout.name,
                             **analyse(checkout, source, where, folder, limit)})
                print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    gib = 2**30
    print(f"{'code':>10} {'source':>20} {'objects':>12} {'refs':>12} {'wall s':>7} {'graph s':>7} {'peak GiB':>8} "
          f"{'B/obj':>6} {'anon GiB':>8} {'B/obj':>6} {'arrays B/obj':>12} {'load':>5}")
    for r in rows:
        if r.get("clrmd"):
            print(f"{'ClrMD':>10} {r['source']:>20} {r['objects']:>12,} {r['edges']:>12,} {r['wall']:>7.1f}")
            continue
        n = r["objects"]
        arrays = f"{r['array_peak'] / n:>12.1f}" if r["array_peak"] is not None else f"{'n/a':>12}"
        source = r["source"] + (" (disk)" if r["work_folder"] else "")
        print(f"{r['code']:>10} {source:>20} {n:>12,} {r['edges']:>12,} {r['wall']:>7.1f} {r['graph']:>7.1f} "
              f"{r['hwm'] / gib:>8.2f} {(r['hwm'] - r['rss_open']) / n:>6.1f} {r['peak_anon'] / gib:>8.2f} "
              f"{(r['peak_anon'] - r['anon_open']) / n:>6.1f} {arrays} {r['load']:>5.1f}")
    for r in rows:
        if not r.get("clrmd"):
            phases = ", ".join(f"{k} {v:.2f}" for k, v in r["phases"].items())
            print(f"{r['code']:>10} {r['source']:>6} {r['count']:,}: open {r['open']:.1f} s, graph phases (s): {phases}; "
                  f"queries {r['queries']:.2f} s (path of {r['path_steps']} steps)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objects", type=int, nargs="+", default=[10_000_000])
    parser.add_argument("--sources", nargs="+", default=["live", "dump"], choices=["live", "dump"])
    parser.add_argument("--clrmd", action="store_true", help="also the plain ClrMD walk of the live process")
    parser.add_argument("--checkouts", type=Path, nargs="+", default=[ROOT],
                        help="the pyinspect checkouts that analyse the same heap, one after the other")
    parser.add_argument("--work-folder", default=None, help="the graph's work folder (disk-backed arrays)")
    parser.add_argument("--memory-limit", type=int, default=0, help="bytes; beyond it the arrays go to the work folder")
    args = parser.parse_args()
    for count in args.objects:
        rows = run(count, args.sources, [c.resolve() for c in args.checkouts], args.clrmd, args.work_folder,
                   args.memory_limit)
        report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
