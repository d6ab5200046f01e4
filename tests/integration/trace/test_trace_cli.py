"""`pyinspect trace --pid N --seconds S`: its --json answer holds to TraceTruth's truth; the
tables name the allocating method and the GCs, and end early with a note when the program
exits mid-recording; a pid without a runtime is a coded error with exit status 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.trace_truth import assert_matches_truth, process_without_runtime, trace_truth

pytestmark = pytest.mark.timeout(300)
PYINSPECT = [str(Path(sys.executable).parent / "pyinspect")]


def _start(pid: int, *options: str) -> subprocess.Popen[str]:
    """The command, once its progress bar shows that the recording runs."""
    cli = subprocess.Popen([*PYINSPECT, "trace", "--pid", str(pid), *options], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    assert cli.stderr is not None
    seen = ""
    while "recording" not in seen:
        char = cli.stderr.read(1)
        assert char, f"pyinspect trace ended before recording: {seen}"
        seen += char
    return cli


def test_json_answer_matches_the_programs_truth(tmp_path: Path) -> None:
    with trace_truth(tmp_path) as (proc, run):
        cli = _start(proc.pid, "--seconds", "20", "--json")
        truth = run.go(proc)
        out, _ = cli.communicate(timeout=240)
    assert cli.returncode == 0
    assert_matches_truth(json.loads(out), truth)


def test_tables_end_early_when_the_program_exits(tmp_path: Path) -> None:
    with trace_truth(tmp_path) as (proc, run):
        cli = _start(proc.pid, "--seconds", "600")
        run.go(proc)
        assert proc.stdin is not None
        proc.stdin.write(b"exit\n")
        proc.stdin.flush()
        out, _ = cli.communicate(timeout=240)
    assert cli.returncode == 0
    assert "exited during the recording" in out
    particle = next(line for line in out.splitlines() if "TraceTruth.Particle" in line)
    assert "MakeParticles" in particle
    assert "GCs:" in out  # counters only come a second into the window: this one may be shorter


def test_a_pid_without_a_runtime_fails_with_its_code() -> None:
    with process_without_runtime() as pid:
        result = subprocess.run([*PYINSPECT, "trace", "--pid", str(pid), "--seconds", "1"],
                                check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.startswith("error: NOT_DOTNET_PROCESS:"), result.stderr
