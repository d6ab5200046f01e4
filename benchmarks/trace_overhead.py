"""What a recording costs the program: TraceTruth's allocation loop with and without a
recording, side by side, on two workloads, and how fast the recorder parses the events.

    .venv/bin/python benchmarks/trace_overhead.py [--seconds S] [--runs R] [--framework net10.0]
                                                  [--workload extreme|app|both] [--no-allocations | --no-gc]

- ``extreme``: the synthetic worst case, int[], own objects and LOH arrays back to back
  (about 1 GB/s on an idle core) with a GC induced every 5 rounds.
- ``app``: the same allocations between stretches of computing (a service between its
  requests), no induced GC: about 70-100 MB/s, an allocation-heavy application's rate.

Each run starts TraceTruth in bench mode; a recorded run starts the recording (allocations
with stacks, GCs, counters) before the loop. Runs alternate (plain, recorded, plain, ...)
so that the machine's load falls on both alike; the median of R runs each counts. Two
measures: rounds per second (wall clock: what the user sees, noisy on a shared machine) and
the program's CPU milliseconds per round (all its threads, read from /proc: what the
recording adds to its work, much steadier under others' load); and the recorder's own CPU
per round (it competes for the cores).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.trace_truth import command

from pyinspect.models.trace import TraceAnswer
from pyinspect.tracing.recorder import start_recording

_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    rounds_per_second: float
    megabytes_per_second: float
    cpu_ms_per_round: float
    recorder_cpu_ms_per_round: float
    answer: TraceAnswer | None


def cpu_seconds(pid: int) -> float:
    """user + system CPU of all the process's threads so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def one_run(framework: str, seconds: float, workload: str, record: bool, allocations: bool = True,
            gc: bool = True) -> Run:
    go = Path(tempfile.mkdtemp()) / "go"
    args = [*command(framework), "bench", str(seconds), str(go), *(["app"] if workload == "app" else [])]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        recorder = start_recording(proc.pid, allocations=allocations, gc=gc) if record else None
        recorder_pid = recorder.helper_pid if recorder is not None else None
        recorder_start = cpu_seconds(recorder_pid) if recorder_pid else 0.0
        start = cpu_seconds(proc.pid)
        go.write_text("go")
        line = proc.stdout.readline().split()  # rounds-per-second R MB-per-second M
        used = cpu_seconds(proc.pid) - start
        recorder_used = cpu_seconds(recorder_pid) - recorder_start if recorder_pid else 0.0
        answer = recorder.stop() if recorder is not None else None
        rate = float(line[1])
        rounds = rate * seconds
        return Run(rate, float(line[3]), used * 1000 / rounds, recorder_used * 1000 / rounds, answer)
    finally:
        proc.kill()
        proc.wait()


def report(workload: str, framework: str, options: argparse.Namespace, plain: list[Run], recorded: list[Run]) -> None:
    def median(runs: list[Run], key: str) -> float:
        return statistics.median(getattr(r, key) for r in runs)

    off, on = median(plain, "rounds_per_second"), median(recorded, "rounds_per_second")
    cpu_off, cpu_on = median(plain, "cpu_ms_per_round"), median(recorded, "cpu_ms_per_round")
    answers = [r.answer for r in recorded if r.answer is not None]
    events = sum(a.parse.events for a in answers)
    parse_seconds = sum(a.parse.seconds for a in answers)
    what = " and ".join(n for n, on in (("allocations", options.allocations), ("gc", options.gc)) if on)
    print(f"TraceTruth {framework}, workload {workload} ({median(plain, 'megabytes_per_second'):.0f} MB/s allocated "
          f"without a recording), {options.seconds:g} s loops, median of {options.runs} runs each, recording {what}")
    print(f"{'without a recording':<28}{off:>10.1f} rounds/s  {cpu_off:7.3f} CPU ms/round   "
          f"runs: {', '.join(f'{r.rounds_per_second:.1f}' for r in plain)}")
    print(f"{'with a recording':<28}{on:>10.1f} rounds/s  {cpu_on:7.3f} CPU ms/round   "
          f"runs: {', '.join(f'{r.rounds_per_second:.1f}' for r in recorded)}")
    print(f"{'slowdown (wall clock)':<28}{(1 - on / off) * 100:>9.1f} %   (goal: under 10 %; sampling: "
          f"{answers[-1].sampling.allocation_event if answers else '-'})")
    print(f"{'program CPU per round':<28}{(cpu_on / cpu_off - 1) * 100:>+9.1f} %   "
          f"(the recorder's own: {median(recorded, 'recorder_cpu_ms_per_round'):.3f} CPU ms/round)")
    if parse_seconds > 0:
        print(f"{'recorder parsing':<28}{events / parse_seconds:>10.0f} events/s "
              f"({events} events in {parse_seconds:.1f} s, TraceLog conversion included)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--framework", default="net10.0")
    parser.add_argument("--workload", choices=["extreme", "app", "both"], default="both")
    parser.add_argument("--allocations", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--gc", action=argparse.BooleanOptionalAction, default=True)
    options = parser.parse_args()
    workloads = ["extreme", "app"] if options.workload == "both" else [options.workload]
    results: dict[str, tuple[list[Run], list[Run]]] = {w: ([], []) for w in workloads}
    for _ in range(options.runs):
        for workload in workloads:  # interleaved too, so that both see the same stretch of load
            plain, recorded = results[workload]
            plain.append(one_run(options.framework, options.seconds, workload, record=False))
            recorded.append(one_run(options.framework, options.seconds, workload, True, options.allocations,
                                    options.gc))
    for workload in workloads:
        report(workload, options.framework, options, *results[workload])


if __name__ == "__main__":
    main()
