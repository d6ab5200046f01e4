"""Damaged and cut copies of one HeapGraphTruth dump, made with fixed seeds, on every face
(CLI, MCP, notebook, a real notebook kernel): each answer says it is incomplete and where,
or that the dump is cut, or DUMP_DAMAGED; a reader process that dies is answered, never
fatal, and the dump reads again; the clean dump's answers say complete."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest
from mcp import Client
from support.damaged_dumps import cut_copy, flipped_copy, zeroed_copy
from support.walk_check import assert_walks_equal

import pyinspect
from pyinspect.errors import DumpDamagedError, DumpError, HeapReadError
from pyinspect.heap import HeapReader
from pyinspect.heap.graph import HeapGraph
from pyinspect.heap.graph_file import load_snapshot
from pyinspect.heap.helper_calls import TARGET
from pyinspect.models.triage import Threads
from pyinspect.server import create_server

PYINSPECT = Path(sys.executable).parent / "pyinspect"
ZEROED_REASON = "no MethodTable (zeroed memory)"


@dataclass(frozen=True)
class Dumps:
    clean: Path
    flipped: Path
    zeroed: Path
    cut: Path
    zeroed_start: str
    heap_bytes: int


@pytest.fixture(scope="module")
def dumps(truth_run: tuple[int, dict[str, Any], Path], tmp_path_factory: pytest.TempPathFactory) -> Dumps:
    """The clean dump and its damaged copies: 2,000 bytes flipped across the heap (seed 38),
    the segment holding the diamond's objects zeroed, the file cut at 60%."""
    _, truth, clean = truth_run
    folder = tmp_path_factory.mktemp("damaged")
    with HeapReader.open_dump(clean) as reader:
        layout = reader.graph().layout()
    segments = [(int(s.start, 16), int(s.start, 16) + s.size) for s in layout.segments if s.size]
    diamond = int(truth["diamond"]["top"]["address"], 16)
    start, end = next((a, b) for a, b in segments if a <= diamond < b)
    return Dumps(clean=clean, flipped=flipped_copy(clean, segments, 2000, 38, folder / "flipped.dmp"),
                 zeroed=zeroed_copy(clean, start, end, folder / "zeroed.dmp"),
                 cut=cut_copy(clean, 0.6, folder / "cut.dmp"), zeroed_start=f"0x{start:016X}",
                 heap_bytes=sum(b - a for a, b in segments))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PYINSPECT), *args], capture_output=True, text=True, timeout=180, check=False)


def _cli_completeness(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The completeness line a --json command writes last on stderr."""
    assert result.returncode == 0, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    found: dict[str, Any] = json.loads(line[line.index("{"):])["completeness"]
    return found


def _names_the_zeroed_segment(completeness: dict[str, Any], dumps: Dumps) -> bool:
    return not completeness["complete"] and any(
        s["start"] == dumps.zeroed_start and s["stoppedAt"] == dumps.zeroed_start and s["reason"] == ZEROED_REASON
        for s in completeness["stoppedSegments"])


def test_the_clean_dump_says_complete_on_every_answer(dumps: Dumps) -> None:
    with HeapReader.open_dump(dumps.clean) as reader:
        assert_walks_equal(reader)  # our walk equals ClrMD's, object by object: nothing left out
        graph = reader.graph()
        answers = [reader.stats().completeness, graph.completeness(), reader.threads_report().completeness,
                   reader.locks().completeness, reader.exceptions().completeness, reader.async_chains().completeness]
    assert all(c.complete and not c.stopped_segments and not c.unreadable_threads for c in answers), answers
    assert _cli_completeness(_cli("heap", "stats", "--dump", str(dumps.clean), "--json"))["complete"] is True


def test_a_zeroed_segment_is_named_by_the_cli_and_the_notebook(dumps: Dumps, tmp_path: Path) -> None:
    zeroed = str(dumps.zeroed)
    for command in (["heap", "stats"], ["heap", "retained", "--top", "3"], ["heap", "instances", "System.String"]):
        assert _names_the_zeroed_segment(_cli_completeness(_cli(*command, "--dump", zeroed, "--json")), dumps)
    text = _cli("heap", "stats", "--dump", zeroed)
    assert text.returncode == 0 and "INCOMPLETE: " in text.stdout and dumps.zeroed_start in text.stdout, text.stdout
    locks = json.loads(_cli("locks", "--dump", zeroed, "--json").stdout)
    assert _names_the_zeroed_segment(locks["completeness"], dumps)
    with pyinspect.open_dump(dumps.zeroed) as heap:
        for frame in (heap.stats(progress=False), heap.retained(top=3), heap.exceptions(), heap.async_chains()):
            completeness = frame.attrs["completeness"].model_dump(by_alias=True)
            assert _names_the_zeroed_segment(completeness, dumps), completeness
        assert heap.threads().attrs["completeness"].complete  # the stacks are whole
        assert heap.snapshot().completeness.stopped_segments[0].start == dumps.zeroed_start
        saved = heap.graph().save_graph(tmp_path / "zeroed.graph")
    assert load_snapshot(saved).completeness.stopped_segments[0].start == dumps.zeroed_start  # the file keeps it


def test_a_cut_dump_is_said_cut_before_any_dac_question(dumps: Dumps) -> None:
    whole, cut = dumps.clean.stat().st_size, dumps.cut.stat().st_size
    result = _cli("heap", "stats", "--dump", str(dumps.cut))
    assert result.returncode == 1 and f"DUMP_ERROR: the dump {dumps.cut} is cut at {cut} of {whole} bytes" \
        in result.stderr, result.stderr
    with pytest.raises(DumpError, match=f"cut at {cut} of {whole} bytes"):
        pyinspect.open_dump(dumps.cut)


def test_bytes_flipped_across_the_heap_never_pass_for_whole_nor_end_the_cli(dumps: Dumps) -> None:
    """Each command answers incomplete, or DUMP_DAMAGED; none is ended by a signal, and no
    type is given more bytes than the whole heap holds (a damaged length is not counted)."""
    for command in (["heap", "stats"], ["heap", "retained", "--top", "5"], ["locks"], ["exceptions"]):
        result = _cli(*command, "--dump", str(dumps.flipped), "--json")
        assert result.returncode in (0, 1), (command, result.returncode, result.stderr[-2000:])
        if result.returncode == 1:
            assert "error: DUMP_DAMAGED: " in result.stderr, result.stderr
            continue
        answer = json.loads(result.stdout)
        completeness = answer["completeness"] if isinstance(answer, dict) else _cli_completeness(result)
        assert completeness["complete"] is False and completeness["stoppedSegments"], (command, completeness)
        if command == ["heap", "stats"]:
            assert max(row["totalSize"] for row in answer) <= dumps.heap_bytes, answer[:3]


def test_a_reader_process_that_dies_is_answered_dump_damaged_and_the_dump_reads_again(dumps: Dumps) -> None:
    with pyinspect.open_dump(dumps.clean) as heap:
        graph = heap.graph(progress=False)
        pid = heap.reader.reader_pid
        assert pid is not None and pid != os.getpid()
        # a trap the reader did not expect ends it as a fault inside the DAC does: the runtime
        # turns it into a native crash (a SIGSEGV or SIGABRT sent from outside it handles)
        os.kill(pid, signal.SIGTRAP)
        with pytest.raises(DumpDamagedError, match="during stats.*ended with SIG(SEGV|ILL)") as raised:
            heap.reader.stats()
        assert raised.value.code == "DUMP_DAMAGED" and raised.value.context["step"] == "stats"
        with pytest.raises(DumpDamagedError, match="built again"):
            graph.summary()  # the graph lived in the reader that ended
        assert heap.stats(progress=False).attrs["completeness"].complete
        assert heap.reader.reader_pid not in (None, pid)
        assert heap.retained(top=1).attrs["completeness"].complete  # the notebook builds its graph again
        os.kill(heap.reader.reader_pid, signal.SIGKILL)  # as the kernel's out-of-memory killer does
        with pytest.raises(HeapReadError, match="killed \\(SIGKILL\\) during stats, not by pyinspect and not by "
                                                "the dump: most often the kernel's out-of-memory killer"):
            heap.reader.stats()
        assert heap.stats(progress=False).attrs["completeness"].complete


def test_a_reader_process_that_stops_answering_is_stopped_and_answered_dump_damaged(
        dumps: Dumps, monkeypatch: pytest.MonkeyPatch) -> None:
    """As when the DAC loops on damaged data: the call gives up after the timeout."""
    monkeypatch.setenv("PYINSPECT_DUMP_CALL_TIMEOUT", "2")
    with HeapReader.open_dump(dumps.clean) as reader:
        pid = reader.reader_pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        with pytest.raises(DumpDamagedError, match="during threads.*gave no answer within 2 s and was stopped"):
            reader.threads_report()
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        assert reader.threads_report().completeness.complete


def test_a_reader_started_early_is_taken_only_by_the_dump_it_opened(dumps: Dumps) -> None:
    """A --dump command starts its reader as it starts (heap.dump_child.start_early), opening that
    dump: an open of the same dump takes it; an open of another ends it and reads the other."""
    from pyinspect.heap.dump_child import start_early

    start_early(str(dumps.clean))
    early = {p.pid for p in _dump_readers()}
    with HeapReader.open_dump(dumps.clean) as reader:
        assert reader.reader_pid in early
        assert reader.stats().completeness.complete
    start_early(str(dumps.clean))
    early = {p.pid for p in _dump_readers()}
    assert early
    with HeapReader.open_dump(dumps.zeroed) as reader:
        assert reader.reader_pid not in early
        assert _names_the_zeroed_segment(reader.stats().completeness.model_dump(by_alias=True), dumps)
        assert not early & {p.pid for p in _dump_readers()}  # ended and reaped


def test_a_step_named_to_be_left_out_is_skipped_and_said(truth_run: tuple[int, dict[str, Any], Path],
                                                          dumps: Dumps) -> None:
    """What a read again after a fault does (heap.skipped_steps): the step the fault was in is
    left out, the answer says so, and what it would have given is missing, nothing else."""
    truth = truth_run[1]
    with HeapReader.open_dump(dumps.clean) as reader:
        builder = reader.call(TARGET, "StartGraph", "handle roots")
        while not reader.call(builder, "Step", 1_000_000):
            pass
        graph = HeapGraph(reader.call(builder, "Finish"), reader, reader.description)
        completeness = graph.completeness()
        assert not completeness.complete and completeness.notes == (
            "handle roots: left out (reading it ended the reader process: damaged data)",)
        held = graph.retained([truth["strongHandle"]["address"], truth["onlyStatic"]["address"]])
        assert [row.live for row in held] == [False, True]  # only the handle's object lost its root
        thread = next(t for t in reader.threads() if t.frames)
        skipped = reader.call(TARGET, "Threads", 50, None, f"stack of OS thread {thread.os_thread_id}")
        report = Threads.model_validate_json(skipped)
        assert report.completeness.unreadable_threads == (thread.os_thread_id,)
        assert next(t for t in report.threads if t.os_thread_id == thread.os_thread_id).frames == ()


def _dump_readers() -> list[psutil.Process]:
    """The dump reader processes (the heap helper run as its own process: heap.dump_child)."""
    return [p for p in psutil.Process().children() if "PyInspect.Heap.dll" in " ".join(p.cmdline())]


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's answer: its structured content, or an error's JSON envelope."""
    result = await client.call_tool(tool, arguments)
    answer: dict[str, Any] = json.loads(result.content[0].text) if result.is_error \
        else result.structured_content  # type: ignore[union-attr, assignment]
    return answer


async def call_ok(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    answer = await call(client, tool, **arguments)
    assert "error" not in answer and answer.get("success", True), (tool, answer)
    return answer


@pytest.mark.asyncio
async def test_the_mcp_server_answers_damage_and_keeps_serving(dumps: Dumps) -> None:
    async with Client(create_server()) as client:
        cut = await call(client, "dump_open", path=str(dumps.cut))
        assert cut["error"]["code"] == "DUMP_ERROR" and "is cut at" in cut["error"]["message"], cut
        await call_ok(client, "dump_open", path=str(dumps.zeroed))
        for tool, arguments in (("heap_stats", {}), ("heap_retained", {}), ("heap_locks", {}), ("heap_async", {})):
            answer = await call_ok(client, tool, **arguments)
            assert _names_the_zeroed_segment(answer["completeness"], dumps), (tool, answer["completeness"])
        assert (await call_ok(client, "heap_threads"))["completeness"]["complete"] is True
        for reader in _dump_readers():
            reader.send_signal(signal.SIGTRAP)  # a native crash; left for the server to reap: it reads how it ended
            while reader.status() != psutil.STATUS_ZOMBIE:
                await anyio.sleep(0.02)
        damaged = await call(client, "heap_exceptions")
        assert damaged["error"]["code"] == "DUMP_DAMAGED" and "ended with SIG" in damaged["error"]["message"], damaged
        again = await call_ok(client, "heap_exceptions")
        assert _names_the_zeroed_segment(again["completeness"], dumps)
        await call_ok(client, "dump_open", path=str(dumps.clean))
        clean = await call_ok(client, "heap_stats")
        assert clean["completeness"]["complete"] is True and clean["summary"]["objects"] > 1000


def test_a_notebook_kernel_survives_a_dump_reader_that_dies(dumps: Dumps) -> None:
    """A real ipykernel through jupyter_client: the fault is an error in the cell, the kernel lives."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        outputs = _run_cell(client, f"""
import os, signal, pyinspect
heap = pyinspect.open_dump({str(dumps.zeroed)!r})
print("first", heap.stats(progress=False).attrs["completeness"].complete)
os.kill(heap.reader.reader_pid, signal.SIGTRAP)
try:
    heap.retained(top=1)
except pyinspect.PyInspectError as exc:
    print("error", exc.code)
print("again", heap.retained(top=1).attrs["completeness"].stopped_segments[0].start)
""")
        assert outputs == f"first False\nerror DUMP_DAMAGED\nagain {dumps.zeroed_start}\n", outputs
        assert manager.is_alive() and _run_cell(client, "print(6 * 7)") == "42\n"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def _run_cell(client: Any, code: str) -> str:
    """A cell's printed output; an exception in it fails the test with its traceback."""
    printed: list[dict[str, Any]] = []
    reply = client.execute_interactive(code, timeout=180, store_history=False, output_hook=printed.append)
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(m["content"]["text"] for m in printed if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")
