"""The recorder against TraceTruth's own truth, on .NET 10 (randomized allocation sampling;
the self-contained .NET 8 and 9 publishes, AllocationTick, are recorded through the MCP
face: tests/server/test_trace_tools.py): bytes per type within 20%, the allocating method
on top, the GCs of each generation exactly. Then the ways a
recording ends: the target exiting mid-recording, a pid without a runtime, none at all."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
import pytest
from support.trace_truth import (
    assert_matches_truth,
    process_without_runtime,
    trace_truth,
)

from pyinspect.errors import ErrorCode, InvalidParameterError, PyInspectError
from pyinspect.tracing.recorder import Recorder, start_recording

pytestmark = pytest.mark.timeout(300)


def _recorders() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if "PyInspect.Trace" in " ".join(p.cmdline())]


def _wait_for_counters(recorder: Recorder) -> None:
    """The runtime sends its counters once a second from when the recording started: a
    window of a few seconds holds some, however fast the phase ran."""
    while recorder.seconds < 3.5:
        time.sleep(0.1)


def test_a_recording_matches_the_programs_own_truth(tmp_path: Path) -> None:
    """.NET 10 here; the .NET 8 and 9 publishes through MCP trace_start (tests/server/test_trace_tools.py)."""
    framework = "net10.0"
    with trace_truth(tmp_path, framework) as (proc, run):
        recorder = start_recording(proc.pid)
        truth = run.go(proc)
        _wait_for_counters(recorder)
        answer = recorder.stop()
    assert answer.pid == proc.pid and not answer.target_exited
    assert answer.runtime_version is not None and answer.runtime_version.startswith(framework[3:5].rstrip("."))
    assert_matches_truth(answer.model_dump(by_alias=True), truth, framework)
    names = {c.name for c in answer.counters}
    assert {"alloc-rate", "time-in-gc", "gen-0-size", "loh-size", "gc-fragmentation", "exception-count"} <= names
    assert answer.parse.events > 0 and answer.parse.events_per_second > 0
    assert _recorders() == []


def test_a_target_exiting_mid_recording_ends_it_with_what_was_recorded(tmp_path: Path) -> None:
    with trace_truth(tmp_path) as (proc, run):
        recorder = start_recording(proc.pid)
        run.go(proc)
        assert proc.stdin is not None
        proc.stdin.write(b"exit\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
        answer = recorder.stop()
    assert answer.target_exited and answer.message is not None and "exited" in answer.message
    assert any(row.type == "TraceTruth.Particle" for row in answer.allocations)
    assert _recorders() == []


def test_a_pid_without_a_runtime_or_process_is_a_coded_error() -> None:
    with process_without_runtime() as pid, pytest.raises(PyInspectError) as not_dotnet:
        start_recording(pid)
    assert not_dotnet.value.code == ErrorCode.NOT_DOTNET_PROCESS
    with pytest.raises(PyInspectError) as missing:
        start_recording(2**22 + 12345)
    assert missing.value.code == ErrorCode.PROCESS_NOT_FOUND
    with pytest.raises(InvalidParameterError):
        start_recording(1, allocations=False, gc=False)
    assert _recorders() == []
