"""Our DAP adapter's latencies, measured over the wire as a client sees them.

    .venv/bin/python benchmarks/adapter.py [--launches L] [--hits H]

AdapterBench hits a breakpoint 50 frames deep H times per launch, writing a monotonic
timestamp (Stopwatch, CLOCK_MONOTONIC) just before each hit. For every launch this
measures launch request to first `stopped`; for every hit, the hit's timestamp to the
`stopped` event's arrival (time.monotonic_ns, the same clock), `stackTrace` of all ~51
frames, and `variables` of a 200-field object. Prints p50/p95 of each against its target.

Expression evaluation (EvalSample stopped at its `eval` marker, E evaluations of each after
a warm-up): a field path read straight from the debuggee, a property getter and a method
call run by func-eval, and a LINQ count with a lambda run in the adapter.

Memory against func-eval, side by side: LINQ over a List<int> of 1,000,000 and a decimal
auto-property summed over 10,000 orders, read from memory (noSideEffects), beside the same
computation with a func-eval per element (a static method, a computed getter). Func-eval
per element is timed over the first SAMPLE elements and scaled to the whole collection
(running it over a million would take many minutes); the ratio is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.adapter_session import children, launched, ok, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import target_dll

TARGET = "AdapterBench"


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed(call):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = call()
    return result, (time.perf_counter() - start) * 1000


def one_launch(hits: int, stamp: Path, results: dict[str, list[float]]) -> None:
    peer = WirePeer()
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        started = time.perf_counter()
        ok(peer.request("launch", {"program": str(target_dll(TARGET)), "args": [str(stamp), str(hits)]}, timeout=30))
        set_breakpoints(peer, TARGET, ["deep"])
        ok(peer.request("configurationDone"))
        for hit in range(hits):
            stopped = peer.wait_event("stopped", timeout=30)
            arrived_ns = time.monotonic_ns()
            if hit == 0:
                results["launch to first breakpoint"].append((time.perf_counter() - started) * 1000)
            results["breakpoint hit to stopped event"].append((arrived_ns - int(stamp.read_text())) / 1e6)
            thread = stopped["body"]["threadId"]
            body, ms = timed(lambda thread=thread: ok(peer.request("stackTrace", {"threadId": thread})))
            results["stackTrace (51 frames)"].append(ms)
            assert len(body["stackFrames"]) >= 50, len(body["stackFrames"])
            scope = ok(peer.request("scopes", {"frameId": body["stackFrames"][0]["id"]}))["scopes"][0]
            wide = children(peer, scope["variablesReference"])["wide"]
            fields, ms = timed(lambda wide=wide: children(peer, wide["variablesReference"]))
            results["variables (200 fields)"].append(ms)
            assert len(fields) == 200
            ok(peer.request("continue", {"threadId": thread}))
        peer.wait_event("terminated", timeout=30)
    finally:
        peer.close()


EVAL_TARGET = "EvalSample"
EVAL_MEASURES = {
    "evaluate field path": ("orders[1].Customer.Name", '"Bob"', 5.0),
    "evaluate property getter": ("orders[0].Label", '"#1:Pending"', 30.0),
    "evaluate method call": ("orders[0].Add(1, 2)", "4", 30.0),
    "evaluate LINQ count (5 items)": ("orders.Where(o => o.Total > 100).Count()", "2", None),
    "evaluate LINQ over 150,000 ints": ("many.Count(x => x % 2 == 0)", "75000", None),
    "evaluate new object + initializer": ('new Customer { Name = "Z" }.Name', '"Z"', None),
    "evaluate assignment": ("count = 42", "42", None),
}
# Measures that take long enough per run to need fewer runs.
HEAVY = {"evaluate LINQ over 150,000 ints": 10}


@contextmanager
def stopped_at_eval() -> Iterator[tuple[WirePeer, int]]:
    """EvalSample launched under the adapter and stopped at its `eval` marker: the peer and
    the top frame's id; the adapter is closed afterwards."""
    with tempfile.TemporaryDirectory() as tmp, launched(EVAL_TARGET, [str(Path(tmp) / "truth.json")], ["eval"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        yield peer, top_frame(peer, thread)["id"]


def evaluate_latencies(evaluations: int) -> dict[str, tuple[list[float], float | None]]:
    """Evaluate each expression `evaluations` times at one stop (after one warm-up each)."""
    results: dict[str, tuple[list[float], float | None]] = {}
    with stopped_at_eval() as (peer, frame):
        for name, (expression, expected, target) in EVAL_MEASURES.items():
            arguments = {"expression": expression, "frameId": frame, "context": "watch"}
            assert ok(peer.request("evaluate", arguments, timeout=30))["result"] == expected
            samples = []
            for _ in range(min(evaluations, HEAVY.get(name, evaluations))):
                body, ms = timed(lambda arguments=arguments: ok(peer.request("evaluate", arguments, timeout=30)))
                assert body["result"] == expected, body
                samples.append(ms)
            results[name] = (samples, target)
    return results


SAMPLE = 200
SIDE_BY_SIDE = {
    # name: (from memory, its answer, target ms, by func-eval per element over SAMPLE elements, elements in all)
    "Where(x > 49990).Count() over 1,000,000 ints": (
        "million.Where(x => x > 49990).Count()", "950009", 50.0,
        f"million.Take({SAMPLE}).Where(x => Config.Above(x, 49990)).Count()", 1_000_000),
    "Sum(o => o.Total) over 10,000 orders (decimal)": (
        "bulkOrders.Sum(o => o.Total)", None, 50.0, f"bulkOrders.Take({SAMPLE}).Sum(o => o.TotalByGetter)", 10_000),
}


def memory_against_funceval(runs: int) -> None:
    """p50 of each expression read from memory, beside func-eval per element (scaled)."""
    with stopped_at_eval() as (peer, frame):

        def run(expression: str, **extra: object) -> tuple[str, float]:
            arguments = {"expression": expression, "frameId": frame, "context": "repl", **extra}
            body, ms = timed(lambda: ok(peer.request("evaluate", arguments, timeout=600)))
            return str(body["result"]), ms

        print(f"\n{'from memory vs func-eval per element':48} {'memory p50':>11} {'func-eval':>11} {'ratio':>8}  target")
        for name, (expression, expected, target, by_calls, count) in SIDE_BY_SIDE.items():
            answer, _ = run(expression, noSideEffects=True)
            assert expected is None or answer == expected, (name, answer)
            memory = percentile([run(expression, noSideEffects=True)[1] for _ in range(runs)], 0.5)
            run(by_calls)
            calls = percentile([run(by_calls)[1] for _ in range(3)], 0.5) * count / SAMPLE
            verdict = f"< {target:.0f} ms: " + ("met" if memory < target else "MISSED")
            print(f"{name:48} {memory:9.1f}ms {calls:9.0f}ms {calls / memory:7.0f}x  {verdict} (answer {answer})")


def report(results: dict[str, tuple[list[float], float | None]]) -> None:
    print(f"{'measure':34} {'n':>4} {'p50 ms':>9} {'p95 ms':>9} {'mean ms':>9}  target")
    for name, (samples, target) in results.items():
        if not samples:
            continue
        verdict = "-" if target is None else (f"p50 < {target:.0f} ms: " + ("met" if percentile(samples, 0.5) < target else "MISSED"))
        print(f"{name:34} {len(samples):4d} {percentile(samples, 0.5):9.2f} {percentile(samples, 0.95):9.2f} "
              f"{statistics.fmean(samples):9.2f}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--hits", type=int, default=20)
    parser.add_argument("--evals", type=int, default=200, help="evaluations of each expression (0 skips them)")
    parser.add_argument("--bulk-runs", type=int, default=10, help="runs of each memory-vs-func-eval measure (0 skips them)")
    options = parser.parse_args()
    targets = {"launch to first breakpoint": None, "breakpoint hit to stopped event": 50.0,
               "stackTrace (51 frames)": 20.0, "variables (200 fields)": 20.0}
    results: dict[str, list[float]] = {name: [] for name in targets}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(options.launches):
            one_launch(options.hits, Path(tmp) / "stamp.txt", results)
    measured = {name: (samples, targets[name]) for name, samples in results.items()}
    if options.evals > 0:
        measured.update(evaluate_latencies(options.evals))
    report(measured)
    if options.bulk_runs > 0:
        memory_against_funceval(options.bulk_runs)


if __name__ == "__main__":
    main()
