"""What a breakpoint costs per hit on a hot line, side by side in one run.

    .venv/bin/python benchmarks/conditions.py [--hits H] [--runs R]

ConditionBench runs one line (`sum += o.Id;` over 100 orders) H times and writes the loop's
own wall time (Stopwatch), so each figure is what the debuggee itself lost per hit. Rows:
no debugger (the line's own cost), a breakpoint with only a hit count that never stops, an
unconditional stop and `continue` by the client (the round trip the goal is measured
against), a condition on a field, a `decimal` compare, a condition calling a getter, a log
point. Rows are measured interleaved, R rounds of all of them, so a shared machine's load
falls on every row alike. Each row: microseconds per hit (median and best of R launches),
the loop's slowdown against no debugger, and the ratio to the unconditional
stop-and-continue (goal: a condition <= 1.3x).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.adapter_session import launched, ok
from support.targets import target_dll

from pyinspect.targets.dotnet_paths import dotnet_host

TARGET = "ConditionBench"
NEVER = 1 << 30

# name: the breakpoint's DAP fields besides its line (None: no debugger; "stop": stop and continue each hit)
ROWS: dict[str, dict[str, Any] | None] = {
    "no debugger": None,
    "hit count only (never stops)": {"hitCondition": f">= {NEVER}"},
    "stop + continue (client round trip)": {},
    "condition on a field: o.Id == -1": {"condition": "o.Id == -1"},
    "decimal compare: o.Total > 100000m": {"condition": "o.Total > 100000m"},
    "getter: o.IsBig": {"condition": "o.IsBig"},
    "condition on a local: i < 0": {"condition": "i < 0"},
    "log point: order {o.Id} {o.Name}": {"logMessage": "order {o.Id} {o.Name}"},
}


def loop_ms(result: Path) -> float:
    return float(result.read_text().split()[0])


def without_debugger(hits: int, result: Path) -> float:
    subprocess.run([str(dotnet_host()), str(target_dll(TARGET)), str(result), str(hits)], check=True, timeout=120)
    return loop_ms(result)


def under_adapter(hits: int, fields: dict[str, Any], result: Path) -> float:
    marker = {"marker": "hot", **fields}
    with launched(TARGET, [str(result), str(hits)], [marker]) as peer:
        stops = fields == {}
        if stops:
            for _ in range(hits):
                thread = peer.wait_event("stopped", timeout=60)["body"]["threadId"]
                ok(peer.request("continue", {"threadId": thread}))
        peer.wait_event("terminated", timeout=600)
    return loop_ms(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hits", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    samples: dict[str, list[float]] = {name: [] for name in ROWS}
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.txt"
        for _ in range(options.runs):  # rows interleaved, so a shared machine's load falls on all of them alike
            for name, fields in ROWS.items():
                if fields is None:  # many more iterations: the line alone costs nanoseconds
                    samples[name].append(without_debugger(options.hits * 1000, result) / 1000)
                else:
                    samples[name].append(under_adapter(options.hits, fields, result))
    per_hit = {name: statistics.median(values) * 1000 / options.hits for name, values in samples.items()}
    best = {name: min(values) * 1000 / options.hits for name, values in samples.items()}
    bare, round_trip = per_hit["no debugger"], per_hit["stop + continue (client round trip)"]
    best_trip = best["stop + continue (client round trip)"]
    print(f"{options.hits} hits per launch, {options.runs} launches per row (interleaved): median and best")
    print(f"{'per hit on a hot line':40} {'us/hit':>10} {'best':>10} {'slowdown':>10} {'vs stop+continue':>17} {'best vs best':>13}")
    for name, micros in per_hit.items():
        ratio = micros / round_trip
        goal = "  goal <= 1.3x: " + ("met" if ratio <= 1.3 else "MISSED") if name.startswith(("condition", "decimal", "getter", "log")) else ""
        print(f"{name:40} {micros:10.2f} {best[name]:10.2f} {micros / bare:9.0f}x {ratio:16.2f}x {best[name] / best_trip:12.2f}x{goal}")


if __name__ == "__main__":
    main()
