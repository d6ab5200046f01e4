"""The whole diagnosis of a dump against `heap stats` on the same dump, end to end as a user
runs them (issue 42's bound: diagnose within 2x heap stats).

    .venv/bin/python benchmarks/diagnose_vs_stats.py [--runs R] [--modes deadlock-monitor,...]

Starts each Ailments mode (.NET 10), writes a dump of it (the crash mode: the dump its runtime
writes as it dies), then times `pyinspect heap stats --dump D --json` and `pyinspect diagnose
--dump D --json`, best of R, wall and CPU seconds (user + system of the child: steadier on a
shared machine), and prints the first finding.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.ailments import crash_dump, running

from pyinspect.heap import create_dump

PYINSPECT = Path(sys.executable).parent / "pyinspect"
MODES = ("deadlock-monitor,deadlock-mixed,convoy,starvation,async-stuck,finalizer,leak-static,leak-event,leak-timer,"
         "growth,duplicate-strings,gc-pressure,crash,healthy-batch,deadlock-semaphore,wasted-capacity,pinning")


def timed(*args: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of one command, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    out = subprocess.run([str(PYINSPECT), *args], capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def best(runs: int, *args: str) -> tuple[float, float, str]:
    results = [timed(*args) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), results[-1][2]


def dump_of(mode: str, folder: Path) -> Path:
    if mode == "crash":
        return crash_dump("net10.0", folder)[1]
    with running("net10.0", mode, folder) as ailing:
        return create_dump(ailing.pid, folder / f"{mode}.dmp")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", default=MODES)
    options = parser.parse_args()
    for mode in options.modes.split(","):
        with tempfile.TemporaryDirectory() as folder:
            dump = dump_of(mode, Path(folder))
            stats_wall, stats_cpu, _ = best(options.runs, "heap", "stats", "--dump", str(dump), "--json")
            wall, cpu, out = best(options.runs, "diagnose", "--dump", str(dump), "--json")
            findings = json.loads(out)["findings"]
            first = f"{findings[0]['severity']} {findings[0]['kind']}" if findings else "none"
            print(f"{mode:18} dump {dump.stat().st_size >> 20:5} MiB  heap stats {stats_wall:5.2f} s (cpu {stats_cpu:5.2f})"
                  f"  diagnose {wall:5.2f} s (cpu {cpu:5.2f})  ratio {wall / stats_wall:4.2f}x (cpu {cpu / stats_cpu:4.2f}x)"
                  f"  first: {first}", flush=True)


if __name__ == "__main__":
    main()
