"""TraceTruth, the recordings' debuggee: started for .NET 10 (`dotnet TraceTruth.dll`) or as
the self-contained net8/net9 publish, it waits for a go file, allocates at known amounts
from known methods, and writes its own truth. `assert_matches_truth` holds a recording's
answer (trace_stop's camelCase JSON) to that truth."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support.targets import BUILD_DIR, end_process, read_truth, target_dll, wait_for_file

FRAMEWORKS = ["net10.0", "net8.0", "net9.0"]
ROUNDS = 60  # ~500 samples per type: 20% is more than 3 standard deviations of the estimate


@dataclass
class TraceTruthRun:
    """The files of one phase: the test creates `go`, the program writes `truth`."""

    folder: Path

    @property
    def truth(self) -> Path:
        return self.folder / "trace-truth.json"

    @property
    def go_file(self) -> Path:
        return self.folder / "go"

    def args(self) -> list[str]:
        return [str(self.truth), str(self.go_file), str(ROUNDS)]

    def go(self, proc: subprocess.Popen[Any] | None = None) -> dict[str, Any]:
        """Start the phase and wait (bounded) for its truth."""
        self.go_file.write_text("go")
        wait_for_file(self.truth, timeout=180, proc=proc)
        truth: dict[str, Any] = read_truth(self.truth)
        return truth


def command(framework: str) -> list[str]:
    if framework == "net10.0":
        return ["dotnet", str(target_dll("TraceTruth"))]
    apphost = BUILD_DIR / f"TraceTruth-{framework}" / "TraceTruth"
    if not apphost.exists():
        pytest.fail(f"{apphost} is not published; run `python3 build.py`")
    return [str(apphost)]


@contextmanager
def trace_truth(folder: Path, framework: str = "net10.0") -> Iterator[tuple[subprocess.Popen[bytes], TraceTruthRun]]:
    """TraceTruth running and ready (its runtime up); always killed afterwards."""
    run = TraceTruthRun(folder)
    proc = subprocess.Popen([*command(framework), *run.args()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=dict(os.environ))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready", "TraceTruth did not start"
        yield proc, run
    finally:
        end_process(proc)


def assert_matches_truth(answer: dict[str, Any], truth: dict[str, Any], framework: str = "net10.0") -> None:
    """Every type above 1 MB within 20%, its method at the top of its stacks; the GCs of each
    generation as the program counted them; pauses positive and within the window."""
    expected_event = "AllocationSampled" if framework == "net10.0" else "AllocationTick"
    assert answer["sampling"]["allocationEvent"] == expected_event, answer["sampling"]
    rows = {row["type"]: row for row in answer["allocations"]}
    for type_name, truth_bytes in truth["bytesByType"].items():
        assert truth_bytes > 1_000_000
        row = rows.get(type_name)
        assert row is not None, f"{type_name} not in {sorted(rows)[:10]}"
        assert abs(row["estimatedBytes"] - truth_bytes) <= 0.2 * truth_bytes, (type_name, row["estimatedBytes"],
                                                                               truth_bytes)
        assert row["samples"] > 0 and row["estimatedCount"] > 0
        top = row["topStacks"][0]
        method = truth["methodByType"][type_name]
        assert top["method"] is not None and f".{method}(" in top["method"], (type_name, top)
        assert top["frames"] and 0 < top["share"] <= 1
    generations = [sum(1 for g in answer["gcs"] if g["generation"] == n) for n in range(3)]
    assert generations == truth["gcsByGeneration"], (generations, truth["gcsByGeneration"])
    pauses = [g["pauseMs"] for g in answer["gcs"]]
    assert all(p > 0 for p in pauses), pauses
    assert sum(pauses) < answer["windowSeconds"] * 1000
    assert all(g["sizesAfter"]["gen0"] >= 0 and g["reason"] and g["kind"] for g in answer["gcs"])


@contextmanager
def process_without_runtime() -> Iterator[int]:
    """The pid of a running process that is not .NET (sleep), killed afterwards."""
    sleeper = subprocess.Popen(["sleep", "120"])
    try:
        yield sleeper.pid
    finally:
        sleeper.kill()
        sleeper.wait()
