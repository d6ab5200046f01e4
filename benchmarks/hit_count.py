"""What a `hit_count` breakpoint costs through the session (MCP, notebook and CLI use it).

    .venv/bin/python benchmarks/hit_count.py [--hits H] [--runs R] [--adapter pyinspect|netcoredbg]

ConditionBench runs its hot line H times and writes the loop's own wall time (Stopwatch).
Rows, interleaved R times so a shared machine's load falls on each alike:
- "H hits, never reached": a breakpoint with hit_count H + 1, so every one of the H hits is
  counted and none stops; the figure is the loop's own time, i.e. what the H hits cost.
- "stop at the Hth hit": hit_count H; wall time from launch to the stop, which is checked to be
  at the Hth hit (the loop variable is H - 1, the breakpoint's `hits` is H).
- "no breakpoint": the loop's own time with no breakpoint under the same session.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.targets import marker_line, target_dll, target_source

from pyinspect.session.debug_session import Session

TARGET = "ConditionBench"


def loop_ms(result: Path) -> float:
    return float(result.read_text().split()[0])


def run_to_end(hits: int, hit_count: int | None, result: Path, adapter: str) -> float:
    """The loop's own milliseconds for `hits` iterations under a breakpoint that never stops."""
    session = Session(adapter)
    try:
        if hit_count is not None:
            session.set_breakpoint(str(target_source(TARGET)), marker_line(TARGET, "hot"), hit_count=hit_count)
        session.launch(str(target_dll(TARGET)), [str(result), str(hits)])
        state = session.wait(600)
        assert state.state == "exited", state
    finally:
        session.close()
    return loop_ms(result)


def run_to_stop(hits: int, result: Path, adapter: str) -> float:
    """Seconds from launch to the stop at the `hits`th hit, checked against the loop variable."""
    session = Session(adapter)
    try:
        breakpoint = session.set_breakpoint(str(target_source(TARGET)), marker_line(TARGET, "hot"), hit_count=hits)
        started = time.perf_counter()
        session.launch(str(target_dll(TARGET)), [str(result), str(hits)])
        state = session.wait(600)
        elapsed = time.perf_counter() - started
        assert state.state == "paused", state
        i = session.stop_reader.evaluate("i", None, 0, "default").result
        assert i == str(hits - 1), f"stopped at i == {i}, not at the {hits}th hit"
        assert breakpoint.info().hits == hits, breakpoint.info()
        session.disconnect(terminate=True)
    finally:
        session.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hits", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--adapter", default="pyinspect")
    options = parser.parse_args()
    hits = options.hits
    rows: dict[str, list[float]] = {"no breakpoint (loop ms)": [], f"{hits} hits, never reached (loop ms)": [],
                                    f"stop at the {hits}th hit (launch to stop, ms)": []}
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.txt"
        for _ in range(options.runs):
            names = list(rows)
            rows[names[0]].append(run_to_end(hits, None, result, options.adapter))
            rows[names[1]].append(run_to_end(hits, hits + 1, result, options.adapter))
            rows[names[2]].append(run_to_stop(hits, result, options.adapter) * 1000)
    print(f"{options.adapter} adapter, {hits} hits, {options.runs} runs")
    print(f"{'row':<48} {'median':>10} {'best':>10} {'us/hit (median)':>16}")
    for name, values in rows.items():
        median = statistics.median(values)
        print(f"{name:<48} {median:>10.1f} {min(values):>10.1f} {median * 1000 / hits:>16.1f}")


if __name__ == "__main__":
    main()
