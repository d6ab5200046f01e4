"""One-shot answers on the same dumps: pyinspect versus SOS (dotnet-dump analyze).

    .venv/bin/python benchmarks/triage_vs_sos.py [--runs R] [--small N] [--large N]

Makes two dumps of HeapTruth in fill mode (N small live objects: 10k and 1M) and one of the
hung HangShape, uses the dotnet-dump 10.0.750501 that build.py installs into tests/.tools/ (or
installs it there), then times each command end to end, as a user runs it, best of R:
`pyinspect heap stats --dump D --json` beside `dotnet-dump analyze D -c "dumpheap -stat"`,
`pyinspect threads --dump D --json` beside `-c "clrstack -all"`; with --baseline, another
checkout's `pyinspect` (say, main's before a change) on the same dumps in the same run. For pyinspect it also prints
when the answer's first byte came, so the time spent after the answer (process exit) shows, and
both commands' CPU seconds (user + system, the process and its children): on a shared, loaded
machine the CPU ratio is the steadier one.
"""

from __future__ import annotations

import argparse
import resource
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


def timed(command: list[str]) -> tuple[float, float, int, float]:
    """(seconds to the first byte of output, seconds to the process's end, output bytes, CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    first = proc.stdout.read(1)
    first_at = time.perf_counter() - start
    rest = proc.stdout.read()
    proc.wait()
    end = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(command)}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return first_at, end, len(first) + len(rest), cpu


def best(command: list[str], runs: int) -> tuple[float, float, int, float]:
    results = [timed(command) for _ in range(runs)]
    fastest = min(results, key=lambda r: r[1])
    return (*fastest[:3], min(r[3] for r in results))


def compare(label: str, ours: list[str], sos: list[str], runs: int, baseline: list[str] | None) -> None:
    first, ours_end, _, ours_cpu = best(ours, runs)
    _, sos_end, _, sos_cpu = best(sos, runs)
    before = ""
    if baseline is not None:
        _, base_end, _, base_cpu = best(baseline, runs)
        before = f"   baseline {base_end:6.2f} s (cpu {base_cpu:5.2f} s, {base_cpu / sos_cpu:4.2f}x)"
    print(f"{label:<38} pyinspect {ours_end:6.2f} s (answer at {first:5.2f} s, cpu {ours_cpu:5.2f} s)   "
          f"dotnet-dump {sos_end:6.2f} s (cpu {sos_cpu:5.2f} s)   ratio {ours_end / sos_end:4.2f}x "
          f"(cpu {ours_cpu / sos_cpu:4.2f}x){before}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=Path, help="another checkout's pyinspect executable, timed in the same run")
    args = parser.parse_args()
    sos = dotnet_dump()
    host = str(dotnet_host())
    with tempfile.TemporaryDirectory(prefix="triage-bench-") as folder:
        where = Path(folder)
        dumps = {}
        for name, count in (("small", args.small), ("large", args.large)):
            ready = where / f"{name}.ready"
            dumps[f"HeapTruth fill {count:,}"] = dump_of(
                [host, str(target_dll("HeapTruth")), "fill", str(count), str(ready)], ready, where / f"{name}.dmp")
        hang_ready = where / "hang.json"
        dumps["HangShape (hung)"] = dump_of([host, str(target_dll("HangShape")), str(hang_ready)], hang_ready,
                                            where / "hang.dmp")
        helps = [("pyinspect", PYINSPECT), *([("baseline", args.baseline)] if args.baseline else [])]
        for name, executable in helps:
            _, end, _, cpu = best([str(executable), "--help"], max(args.runs, 3))
            print(f"{name} --help {end:.2f} s (cpu {cpu:.2f} s)", flush=True)
        for label, dump in dumps.items():
            for command, sos_command in ((["heap", "stats"], "dumpheap -stat"), (["threads"], "clrstack -all")):
                ours = [*command, "--dump", str(dump), "--json"]
                compare(f"{' '.join(command)}, {label}", [str(PYINSPECT), *ours],
                        [str(sos), "analyze", str(dump), "-c", sos_command, "-c", "exit"], args.runs,
                        [str(args.baseline), *ours] if args.baseline else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
