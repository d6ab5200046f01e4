"""The faces over HangShape on .NET 10: the CLI (`pyinspect threads|locks|async|exceptions
--json`, run as a user runs it) on the crash dump and the hung process, and the notebook's
DataFrames; every answer checked against the program's own truth. The MCP tools:
tests/server/test_heap_triage.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.hangshape import Hang
from support.targets import marker_line

import pyinspect

PYINSPECT = Path(sys.executable).parent / "pyinspect"
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def framework() -> str:
    return "net10.0"


def cli(*args: str) -> Any:
    result = subprocess.run([str(PYINSPECT), *args], capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_cli_threads_on_the_crash_dump_gives_the_issues_records(crash: tuple[Hang, Path]) -> None:
    truth, dump = crash
    rows = {row.get("name"): row for row in cli("threads", "--dump", str(dump), "--json")}
    for expected in truth.truth["threads"]:
        row = rows[expected["name"]]
        assert (row["osThreadId"], row["managedThreadId"]) == (expected["osThreadId"], expected["managedThreadId"])
        assert all({"method"} <= set(frame) for frame in row["frames"])
    waits = next(f for f in rows["deadlock-a"]["frames"] if f["method"].startswith("HangShape.Program.DeadlockA("))
    assert (Path(waits["file"]).name, waits["line"]) == ("Program.cs", marker_line("HangShape", "deadlock-a-waits"))
    assert rows["crasher"]["exception"]["type"] == "System.ApplicationException"


def test_cli_locks_on_the_hung_process_names_the_deadlock(hang: Hang) -> None:
    answer = cli("locks", "--pid", str(hang.pid), "--json")
    assert len(answer["deadlocks"]) == 1
    names = {step["thread"]["name"] for step in answer["deadlocks"][0]["cycle"]}
    assert names == {"deadlock-a", "deadlock-b"}
    deadlocked = [lk for lk in answer["locks"] if lk.get("deadlock")]
    assert {lk["owner"]["name"] for lk in deadlocked} == names
    assert all(len(lk["waiters"]) == 1 for lk in deadlocked)


def test_cli_async_and_exceptions_on_the_crash_dump(crash: tuple[Hang, Path]) -> None:
    _, dump = crash
    chain = cli("async", "--dump", str(dump), "--json")["chains"][0]
    assert chain["stuck"]
    assert [(f["method"], f["line"]) for f in chain["chain"]] == [
        ("HangShape.AsyncChain.Inner", marker_line("HangShape", "await-inner")),
        ("HangShape.AsyncChain.Middle", marker_line("HangShape", "await-middle")),
        ("HangShape.AsyncChain.Outer", marker_line("HangShape", "await-outer"))]
    first = cli("exceptions", "--dump", str(dump), "--json")["exceptions"][0]
    assert (first["type"], first["message"], first["threadName"]) == ("System.ApplicationException",
                                                                      "triage-crash", "crasher")
    assert first["stack"] and first["inner"]["type"] == "System.FormatException"


def test_cli_threadpool_prints_the_queued_work_by_type(crash: tuple[Hang, Path]) -> None:
    truth, dump = crash
    pool = cli("threadpool", "--dump", str(dump), "--json")
    by_type = {row["type"]: row for row in pool["queuedByType"]}
    assert by_type["HangShape.QueuedWork"]["global"] == truth.truth["pool"]["queuedWork"]
    assert by_type["HangShape.LocalWork"]["local"] == truth.truth["pool"]["localWork"]
    text = subprocess.run([str(PYINSPECT), "threadpool", "--dump", str(dump)], capture_output=True, text=True,
                          timeout=300, check=True).stdout
    work = truth.truth['pool']['queuedWork']
    assert f"queued {work:>6} HangShape.QueuedWork  (global {work}, local 0)" in text


_SPIED = """
import sys
from pyinspect.heap.frames import Frames

def spied(real, kind):
    def call(self, *args):
        answer = real(self, *args)
        what = args[0][:6].decode() if args else ""
        print(kind, what, "pyinspect.models.triage" in sys.modules, file=sys.stderr, flush=True)
        return answer
    return call

Frames.send_bytes, Frames.recv_bytes = spied(Frames.send_bytes, "sent"), spied(Frames.recv_bytes, "read")
sys.argv = ["pyinspect", *sys.argv[1:]]
from pyinspect.cli import main
main()
"""


def test_cli_loads_the_answers_models_while_the_dump_reader_works(crash: tuple[Hang, Path]) -> None:
    """`locks --dump` sends its run request before the triage models load, and they are loaded
    when it reads the answer (pyinspect.heap.reader's meanwhile): they cost the command line
    milliseconds the reader would wait for (docs/triage.md, Speed)."""
    result = subprocess.run([sys.executable, "-c", _SPIED, "locks", "--dump", str(crash[1]), "--json"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0 and len(json.loads(result.stdout)["deadlocks"]) == 1, result.stderr
    steps = [line.split() for line in result.stderr.splitlines() if line.startswith(("sent", "read"))]
    run = steps.index(["sent", '["run"', "False"])
    assert steps[run + 1] == ["read", "True"], steps


def test_cli_refuses_a_command_with_no_target() -> None:
    result = subprocess.run([str(PYINSPECT), "threads", "--json"], capture_output=True, text=True, timeout=120,
                            check=False)
    assert result.returncode == 1 and result.stderr.startswith("error: INVALID_PARAMETER:"), result.stderr


def test_notebook_methods_return_dataframes(crash: tuple[Hang, Path]) -> None:
    with pyinspect.open_dump(crash[1]) as heap:
        threads = heap.threads()
        assert {"os_thread_id", "managed_thread_id", "name", "blocked_in", "top"} <= set(threads.columns)
        row = threads[threads["name"] == "deadlock-a"].iloc[0]
        assert row["blocked_in"] == "monitor" and row["waiting_for"]
        stack = heap.stack(int(row["os_thread_id"]))
        assert stack["method"].str.startswith("HangShape.Program.DeadlockA(").any()
        locks = heap.locks()
        assert locks["deadlock"].sum() == 2
        assert len(heap.deadlocks()) == 1
        chains = heap.async_chains()
        assert list(chains[chains["chain"] == 0]["method"]) == ["HangShape.AsyncChain.Inner",
                                                                "HangShape.AsyncChain.Middle",
                                                                "HangShape.AsyncChain.Outer"]
        assert heap.exceptions().iloc[0]["message"] == "triage-crash"
