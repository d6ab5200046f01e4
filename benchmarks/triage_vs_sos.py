"""One-shot answers on the same dumps: pyinspect versus SOS (dotnet-dump analyze), side by side.

    .venv/bin/python benchmarks/triage_vs_sos.py [--runs R] [--small N] [--large N] [--baseline EXE]

Makes a dump of the hung HangShape and two of HeapTruth in fill mode (N small live objects:
10k and, with --large, 1M), uses the dotnet-dump 10.0.750501 that build.py installs into
tests/.tools/ (or installs it there), then times every one-shot command end to end, as a user
runs it (start to exit), beside SOS's matching command on the same dump:

    threads      clrstack -all              locks        syncblk
    async        dumpasync                  exceptions   dumpheap -type Exception
    heap stats   dumpheap -stat

`locks` is timed twice: against `syncblk` alone, which reads the sync block table and so
misses every thin lock, and against `syncblk` and `dumpheap -thinlock` in one session, which
together list the locks `locks` lists (it also reads every stack for the waiters).

The commands of one row run in turn, R rounds (pyinspect, dotnet-dump, the baseline, then the
next round), so a machine whose speed drifts slows each alike; each figure is the median of
its R runs, the ratio the median of the R pairs' ratios. CPU seconds are the process's and its
children's (user + system). With --baseline, another checkout's `pyinspect` (say, main's
before a change) on the same dumps in the same rounds. `pyinspect --help` is timed too.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.targets import target_dll, wait_for_file

from pyinspect.heap import create_dump
from pyinspect.targets.dotnet_paths import dotnet_host

TOOLS = ROOT / "tests" / ".tools"  # build.py installs dotnet-dump here
DOTNET_DUMP_VERSION = "10.0.750501"
PYINSPECT = Path(sys.executable).parent / "pyinspect"
HANG = "HangShape (hung)"
# (pyinspect's command, SOS's commands run in one dotnet-dump session, the dump or None for the heap ones)
COMMANDS = [(["threads"], ["clrstack -all"], HANG), (["locks"], ["syncblk"], HANG),
            (["locks"], ["syncblk", "dumpheap -thinlock"], HANG), (["async"], ["dumpasync"], HANG),
            (["exceptions"], ["dumpheap -type Exception"], HANG), (["heap", "stats"], ["dumpheap -stat"], None)]


def dotnet_dump() -> Path:
    tool = TOOLS / "dotnet-dump"
    if not tool.exists():
        subprocess.run([str(dotnet_host()), "tool", "install", "--tool-path", str(TOOLS), "dotnet-dump",
                        "--version", DOTNET_DUMP_VERSION], check=True, capture_output=True, timeout=600)
    return tool


def dump_of(command: list[str], ready: Path, out: Path) -> Path:
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file(ready, timeout=600, proc=proc)
        return create_dump(proc.pid, out, timeout=600)
    finally:
        proc.kill()
        proc.wait(timeout=30)


def timed(command: list[str]) -> tuple[float, float]:
    """(seconds from start to exit, CPU seconds of the process and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    end = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {' '.join(command)}")
    return end, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def side_by_side(commands: list[list[str]], runs: int) -> list[list[tuple[float, float]]]:
    """Each command's (wall, cpu) over the rounds, the commands of a round run in turn after one
    unmeasured round (the page cache and the first start of each)."""
    for command in commands:
        timed(command)
    rounds = [[timed(command) for command in commands] for _ in range(runs)]
    return [[row[i] for row in rounds] for i in range(len(commands))]


def median(values: list[float]) -> float:
    return statistics.median(values)


def compare(label: str, ours: list[str], sos: list[str], runs: int, baseline: list[str] | None) -> None:
    commands = [ours, sos, *([baseline] if baseline else [])]
    measured = side_by_side(commands, runs)
    wall = [median([w for w, _ in runs_of]) for runs_of in measured]
    cpu = [median([c for _, c in runs_of]) for runs_of in measured]
    ratio = median([a[0] / b[0] for a, b in zip(measured[0], measured[1], strict=True)])
    line = (f"| {label:<34} | {wall[0]:5.2f} s (cpu {cpu[0]:4.2f}) | {wall[1]:5.2f} s (cpu {cpu[1]:4.2f}) "
            f"| {ratio:5.2f}x |")
    if baseline:
        before = median([a[0] / b[0] for a, b in zip(measured[2], measured[1], strict=True)])
        line += f" {wall[2]:5.2f} s (cpu {cpu[2]:4.2f}), {before:5.2f}x |"
    print(line, flush=True)


def make_dumps(where: Path, small: int, large: int | None) -> dict[str, Path]:
    host = str(dotnet_host())
    dumps = {}
    hang_ready = where / "hang.json"
    dumps[HANG] = dump_of([host, str(target_dll("HangShape")), str(hang_ready)], hang_ready, where / "hang.dmp")
    for name, count in (("small", small), ("large", large)):
        if count:
            ready = where / f"{name}.ready"
            dumps[f"HeapTruth fill {count:,}"] = dump_of(
                [host, str(target_dll("HeapTruth")), "fill", str(count), str(ready)], ready, where / f"{name}.dmp")
    return dumps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="rounds per row (median of these; default 7)")
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=0, help="also heap stats on a dump of this many objects")
    parser.add_argument("--baseline", type=Path, help="another checkout's pyinspect executable, timed in the same rounds")
    args = parser.parse_args()
    sos = str(dotnet_dump())
    helps = [[str(PYINSPECT), "--help"], *([[str(args.baseline), "--help"]] if args.baseline else [])]
    for command, runs_of in zip(helps, side_by_side(helps, args.runs), strict=True):
        print(f"{command[0]} --help: {median([w for w, _ in runs_of]):.2f} s (median of {args.runs})", flush=True)
    with tempfile.TemporaryDirectory(prefix="triage-bench-") as folder:
        dumps = make_dumps(Path(folder), args.small, args.large)
        header = "| command, dump | pyinspect | dotnet-dump (SOS) | ratio |"
        print(f"\n{header}{' baseline, ratio |' if args.baseline else ''}", flush=True)
        print(f"|---|---|---|---|{'---|' if args.baseline else ''}", flush=True)
        for command, sos_commands, on in COMMANDS:
            for label in [on] if on else [name for name in dumps if name != HANG]:
                ours = [*command, "--dump", str(dumps[label]), "--json"]
                asks = [part for sos_command in [*sos_commands, "exit"] for part in ("-c", sos_command)]
                compare(f"{' '.join(command)} ({' + '.join(sos_commands)}), {label}", [str(PYINSPECT), *ours],
                        [sos, "analyze", str(dumps[label]), *asks], args.runs,
                        [str(args.baseline), *ours] if args.baseline else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
