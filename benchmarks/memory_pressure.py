"""The heap graph under a container's memory limit: memory mode or disk mode, chosen by the cgroup.

    .venv/bin/python benchmarks/memory_pressure.py --objects 10000000 --limit 1200M
        [--before /path/to/main] [--sources dump live] [--timeout 900]

Starts HeapTruth holding about N objects shaped like an application's heap (as
benchmarks/heap_scale.py does), writes its dump, and analyses it (graph, summary, the top
retainers, the live statistics, one retention path) in a fresh process per run, each inside
a memory cgroup of its own made for the run and removed after (tests/support/memory_cgroup.py;
needs root and a writable memory cgroup); the target stays outside. Runs:
unconstrained (a cgroup without a limit, to measure its peak), then with --limit each
checkout given by --before (the code before a change) and this one. The limit should be below
what memory mode needs and above the runtime plus disk mode. Printed per run: exit (-9: killed),
the cgroup's OOM kills, wall seconds, the cgroup's peak (anonymous memory and page cache: in
disk mode the arrays' file pages fill it up to the limit and are written back), its peak
anonymous memory (sampled every 20 ms), whether the arrays were on disk, and whether the
answers equal the unconstrained run's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from heap_scale import app_heap
from support.memory_cgroup import MemoryCgroup, memory_cgroup

from pyinspect.heap import create_dump

# Runs in the cgroup: one source, every graph phase, the answers and the store on one JSON line.
ANALYSE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from pyinspect.heap import HeapReader
source, where = sys.argv[2], sys.argv[3]
reader = HeapReader.attach(int(where)) if source == "live" else HeapReader.open_dump(where)
graph = reader.graph()
summary = graph.summary()
live = graph.stats("live", top=10)
first = graph.instances(live[0].type, 0, 1)[0].address
paths = graph.paths(first, 1)
print(json.dumps({"work_folder": summary.work_folder, "answers": {
    "objects": summary.objects, "edges": summary.edges, "live": summary.live_objects,
    "retained": [(r.address, r.retained_size) for r in graph.retained(top=10)],
    "stats": [(s.type, s.count, s.total_size) for s in live],
    "path": [step.address for step in paths.paths[0].steps] if paths.paths else []}}))
"""


def analyse(checkout: Path, source: str, where: str, limit: int | None, timeout: float) -> dict[str, Any]:
    """One analysis by checkout's code inside a new memory cgroup of limit bytes."""
    python = checkout / ".venv" / "bin" / "python"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # another checkout is only read
    with memory_cgroup(limit) as group:
        start = time.perf_counter()
        proc = subprocess.Popen(group.wrap([str(python), "-c", ANALYSE, str(checkout), source, where]), cwd=checkout,
                                env=env, stdout=subprocess.PIPE, text=True)
        anonymous: list[int] = []
        sampler = threading.Thread(target=_sample_anonymous, args=(group, proc, anonymous), daemon=True)
        sampler.start()
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        wall = time.perf_counter() - start
        sampler.join()
        row = {**_measured(group, proc.returncode, wall), "peak_anon": max(anonymous, default=0)}
    lines = out.strip().splitlines()
    if proc.returncode == 0 and lines:
        row.update(json.loads(lines[-1]))
    return row


def _sample_anonymous(group: MemoryCgroup, proc: subprocess.Popen[str], samples: list[int]) -> None:
    """The cgroup's anonymous memory every 20 ms while proc runs."""
    while proc.poll() is None:
        samples.append(group.anonymous())
        time.sleep(0.02)


def _measured(group: MemoryCgroup, code: int, wall: float) -> dict[str, Any]:
    return {"exit": code, "wall": wall, "peak": group.peak(), "oom_kills": group.oom_kills()}


def run(count: int, sources: list[str], checkouts: list[Path], limit: int, timeout: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="memory-pressure-") as scratch, app_heap(count, Path(scratch)) as target:
        for source in sources:
            where = str(target.pid) if source == "live" else str(create_dump(target.pid, Path(scratch) / "h.dmp",
                                                                               timeout=3600))
            free = {"source": source, "count": count, "code": ROOT.name, "limit": None,
                    **analyse(ROOT, source, where, None, timeout)}
            rows.append(free)
            print(json.dumps(free), file=sys.stderr)
            for checkout in checkouts:
                row = {"source": source, "count": count, "code": checkout.name, "limit": limit,
                       **analyse(checkout, source, where, limit, timeout)}
                row["equal"] = row.get("answers") == free.get("answers") if "answers" in row else None
                rows.append(row)
                print(json.dumps(row), file=sys.stderr)
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    mib = 2**20
    print(f"{'code':>14} {'source':>6} {'objects':>12} {'limit MiB':>9} {'exit':>5} {'OOM kills':>9} {'wall s':>7} "
          f"{'peak MiB':>8} {'anon MiB':>8} {'arrays':>7} {'answers':>8}")
    for r in rows:
        limit = f"{r['limit'] // mib}" if r["limit"] else "none"
        objects = f"{r['answers']['objects']:,}" if "answers" in r else f"~{r['count']:,}"
        where = "-" if "answers" not in r else ("disk" if r["work_folder"] else "memory")
        equal = {None: "-", True: "equal", False: "DIFFER"}[r.get("equal")] if r["limit"] else "(truth)"
        print(f"{r['code']:>14} {r['source']:>6} {objects:>12} {limit:>9} {r['exit']:>5} {r['oom_kills']:>9} "
              f"{r['wall']:>7.1f} {r['peak'] / mib:>8.0f} {r['peak_anon'] / mib:>8.0f} {where:>7} {equal:>8}")


def _bytes(text: str) -> int:
    match = re.fullmatch(r"(\d+)([KMG]?)", text.upper())
    if match is None:
        raise argparse.ArgumentTypeError(f"a size like 1200M, got {text}")
    return int(match[1]) << {"": 0, "K": 10, "M": 20, "G": 30}[match[2]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objects", type=int, default=10_000_000)
    parser.add_argument("--limit", type=_bytes, required=True, help="the cgroup's memory limit, e.g. 1200M")
    parser.add_argument("--sources", nargs="+", default=["dump"], choices=["live", "dump"])
    parser.add_argument("--before", type=Path, nargs="*", default=[],
                        help="checkouts analysed under the limit before this one (e.g. main before a change)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before a run is stopped")
    args = parser.parse_args()
    checkouts = [c.resolve() for c in args.before] + [ROOT]
    report(run(args.objects, args.sources, checkouts, args.limit, args.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
