"""What a recording costs the program: TraceTruth's allocation loop (int[], own objects, LOH
arrays, induced GCs) with and without a recording, side by side, and how fast the recorder
parses the events.

    .venv/bin/python benchmarks/trace_overhead.py [--seconds S] [--runs R] [--framework net10.0]
                                                  [--no-allocations | --no-gc]

Each run starts TraceTruth in bench mode; a recorded run starts the recording (allocations
with stacks, GCs, counters) before the loop. Runs alternate (plain, recorded, plain, ...)
so that the machine's load falls on both alike; the median of R runs each counts. Prints
rounds/s of both, the slowdown, and the recorder's events/s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.trace_truth import command

from pyinspect.models.trace import TraceAnswer
from pyinspect.tracing.recorder import start_recording


def one_run(framework: str, seconds: float, record: bool, allocations: bool = True,
            gc: bool = True) -> tuple[float, TraceAnswer | None]:
    go = Path(tempfile.mkdtemp()) / "go"
    proc = subprocess.Popen([*command(framework), "bench", str(seconds), str(go)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        recorder = start_recording(proc.pid, allocations=allocations, gc=gc) if record else None
        go.write_text("go")
        line = proc.stdout.readline().split()
        answer = recorder.stop() if recorder is not None else None
        return float(line[1]), answer
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--framework", default="net10.0")
    parser.add_argument("--allocations", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--gc", action=argparse.BooleanOptionalAction, default=True)
    options = parser.parse_args()
    plain: list[float] = []
    recorded: list[float] = []
    answers: list[TraceAnswer] = []
    for _ in range(options.runs):
        plain.append(one_run(options.framework, options.seconds, record=False)[0])
        rate, answer = one_run(options.framework, options.seconds, True, options.allocations, options.gc)
        recorded.append(rate)
        assert answer is not None
        answers.append(answer)
    off, on = statistics.median(plain), statistics.median(recorded)
    sampling = answers[-1].sampling.allocation_event
    events = sum(a.parse.events for a in answers)
    parse_seconds = sum(a.parse.seconds for a in answers)
    what = " and ".join(n for n, on in (("allocations", options.allocations), ("gc", options.gc)) if on)
    print(f"TraceTruth {options.framework}, {options.seconds:g} s loops, median of {options.runs} runs each, "
          f"recording {what}")
    print(f"{'without a recording':<28}{off:>10.1f} rounds/s   runs: {', '.join(f'{r:.1f}' for r in plain)}")
    print(f"{'with a recording':<28}{on:>10.1f} rounds/s   runs: {', '.join(f'{r:.1f}' for r in recorded)}")
    print(f"{'slowdown':<28}{(1 - on / off) * 100:>9.1f} %   (goal: under 10 %; sampling: {sampling})")
    print(f"{'recorder parsing':<28}{events / parse_seconds:>10.0f} events/s "
          f"({events} events in {parse_seconds:.1f} s, TraceLog conversion included)")


if __name__ == "__main__":
    main()
