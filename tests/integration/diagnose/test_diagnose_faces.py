"""diagnose's CLI and notebook faces on one sick program (Ailments starvation, .NET 10), live
and from its dump, as a user runs them; the MCP tool: tests/server/test_diagnose_tool.py."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.ailments import Ailing, starved_with_dump

import pyinspect
from pyinspect.errors import InvalidParameterError

PYINSPECT = Path(sys.executable).parent / "pyinspect"
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def starved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Ailing, Path]]:
    with starved_with_dump(tmp_path_factory.mktemp("starved")) as found:
        yield found


def cli(*args: str, status: int = 0) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(PYINSPECT), "diagnose", *args], capture_output=True, text=True, timeout=120,
                            check=False)
    assert result.returncode == status, result.stderr
    return result


def _pool_threads(finding: dict[str, Any]) -> set[int]:
    return {t["osThreadId"] for t in finding["evidence"]["threads"]}


def test_cli_json_on_the_dump_names_the_starvation_with_the_blocked_pool_threads(starved: tuple[Ailing, Path]) -> None:
    ailing, dump = starved
    answer = json.loads(cli("--dump", str(dump), "--json").stdout)
    first = answer["findings"][0]
    assert (first["kind"], first["severity"]) == ("thread-pool-starvation", "critical")
    assert _pool_threads(first) == ailing.os_ids("pool-")
    assert first["evidence"]["methods"][0]["method"].startswith("Ailments.Starvation.Handle(")
    assert "crash" in answer["checked"] and answer["thresholds"]["convoyWaiters"] == 3


def test_cli_compares_with_a_baseline_snapshot_file(starved: tuple[Ailing, Path], tmp_path: Path) -> None:
    _, dump = starved
    snapshot = tmp_path / "before.snap"
    subprocess.run([str(PYINSPECT), "heap", "snapshot", "--dump", str(dump), "-o", str(snapshot)], check=True,
                   capture_output=True, timeout=120)
    answer = json.loads(cli("--dump", str(dump), "--baseline", str(snapshot), "--json").stdout)
    assert "memory-growth" in answer["checked"] and "memory-growth" not in answer["unchecked"]
    assert not [f for f in answer["findings"] if f["kind"] == "memory-growth"]  # the same heap: nothing grew
    assert cli("--dump", str(dump), "--baseline", str(dump), status=1).stderr.startswith("error: INVALID_PARAMETER")


def test_cli_report_on_the_live_process_and_a_bad_threshold(starved: tuple[Ailing, Path]) -> None:
    ailing, _ = starved
    report = cli("--pid", str(ailing.pid)).stdout
    assert report.startswith("CRITICAL thread-pool-starvation (high confidence): thread-pool starvation:")
    assert "Ailments.Starvation.Handle" in report and "not checked: crash" in report
    refused = cli("--pid", str(ailing.pid), "--threshold", "convoy_waiters=0", status=1)
    assert refused.stderr.startswith("error: INVALID_PARAMETER: bad thresholds (convoy_waiters")
    assert cli("--threshold", "nonsense", status=1).stderr.startswith("error: INVALID_PARAMETER")
    refused = cli("--dump", "/no/such.dmp", "--record", "1", status=1).stderr
    assert refused.startswith("error: INVALID_PARAMETER: --record goes with --pid")
    refused = cli("--pid", str(ailing.pid), "--record", "0.1", status=1).stderr
    assert refused.startswith("error: INVALID_PARAMETER: record_seconds must be")


def test_notebook_diagnose_answers_a_dataframe_from_a_dump_a_pid_and_an_open_heap(
        starved: tuple[Ailing, Path]) -> None:
    ailing, dump = starved
    frame = pyinspect.diagnose(str(dump), progress=False)
    assert list(frame.columns[:4]) == ["severity", "kind", "confidence", "statement"]
    assert frame.iloc[0]["kind"] == "thread-pool-starvation"
    assert set(frame.iloc[0]["threads"]) == {t["managedThreadId"] for t in ailing.truth["threads"]}
    assert frame.attrs["diagnosis"].findings[0].evidence.methods[0].file.endswith("Starvation.cs")
    live = pyinspect.diagnose(ailing.pid, thresholds={"starvation_blocked_share": 1.0}, progress=False)
    assert live.iloc[0]["kind"] == "thread-pool-starvation"
    with pyinspect.open_dump(dump) as heap:
        assert heap.diagnose(progress=False).iloc[0]["kind"] == "thread-pool-starvation"
    with pytest.raises(InvalidParameterError):
        pyinspect.diagnose(str(dump), thresholds={"no_such_threshold": 1})
    with pytest.raises(InvalidParameterError):
        pyinspect.diagnose(str(dump), record_seconds=1.0)
