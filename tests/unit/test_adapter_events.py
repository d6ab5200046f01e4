"""AdapterEvents moves a DebuggeeState from the adapter's events, with a stand-in client:
stops, hit counts (the adapter's own, or counted here for one that does not count), ends,
and a retired handler's silence."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, cast

from pyinspect.dap.client import DapClient
from pyinspect.session.adapter_events import AdapterEvents
from pyinspect.session.breakpoints import BreakpointTable
from pyinspect.session.program_output import OutputBuffer
from pyinspect.session.state import DebuggeeState


class RecordingClient:
    """Answers what AdapterEvents may ask, and records the continues it sends."""

    def __init__(self, top_frame: dict[str, Any] | None = None, counts_hits: bool = False) -> None:
        self.continued: list[int] = []
        self.top_frame = top_frame
        self.capabilities = {"supportsHitConditionalBreakpoints": True} if counts_hits else {}

    def continue_(self, thread_id: int) -> dict[str, Any]:
        self.continued.append(thread_id)
        return {}

    def stack_trace(self, thread_id: int, start: int, levels: int) -> dict[str, Any]:
        return {"stackFrames": [self.top_frame] if self.top_frame else []}


def handler(tmp_path: Path, client: RecordingClient | None = None,
            hit_count: int | None = None) -> tuple[AdapterEvents, DebuggeeState, BreakpointTable, RecordingClient]:
    source = tmp_path / "Program.cs"
    source.write_text("// program\n")
    table = BreakpointTable()
    breakpoint = table.add(str(source), 3, None, hit_count)
    table.apply_results([breakpoint], [{"id": 100, "verified": True, "line": 3}])
    state = DebuggeeState()
    state.start("launch", "/bin/App.dll")
    recorder = client or RecordingClient()
    events = AdapterEvents(state, table, OutputBuffer(), cast(DapClient, recorder))
    return events, state, table, recorder


def stopped(**body: Any) -> dict[str, Any]:
    return {"event": "stopped", "body": body}


def until(condition: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_breakpoint_stop_pauses_with_pyinspects_own_breakpoint_id(tmp_path: Path) -> None:
    events, state, table, _ = handler(tmp_path)
    events(stopped(reason="breakpoint", threadId=5, hitBreakpointIds=[100]))
    stop = state.current_stop
    assert state.state == "paused" and stop is not None
    assert (stop.thread_id, stop.breakpoint_ids, table.all()[0].hits) == (5, [table.all()[0].id], 1)


def test_a_hit_before_the_hit_count_is_continued_and_never_seen(tmp_path: Path) -> None:
    events, state, table, client = handler(tmp_path, hit_count=2)
    events(stopped(reason="breakpoint", threadId=5, hitBreakpointIds=[100]))
    assert until(lambda: client.continued == [5])
    assert state.state == "running"
    events(stopped(reason="breakpoint", threadId=5, hitBreakpointIds=[100]))
    assert state.state == "paused" and table.all()[0].hits == 2


def test_an_adapter_that_counts_hits_is_never_continued_and_its_count_is_shown(tmp_path: Path) -> None:
    events, state, table, client = handler(tmp_path, RecordingClient(counts_hits=True), hit_count=1000)
    events(stopped(reason="breakpoint", threadId=5, hitBreakpointIds=[100], hitCounts=[1000]))
    assert state.state == "paused" and client.continued == []
    assert table.all()[0].hits == 1000


def test_an_unnamed_breakpoint_stop_is_matched_by_the_top_frames_location(tmp_path: Path) -> None:
    frame = {"source": {"path": str(tmp_path / "Program.cs")}, "line": 3}
    events, state, table, _ = handler(tmp_path, RecordingClient(frame), hit_count=1)
    events(stopped(reason="breakpoint", threadId=5))
    assert until(lambda: state.state == "paused")
    assert table.all()[0].hits == 1


def test_exited_then_terminated_ends_with_the_exit_code(tmp_path: Path) -> None:
    events, state, _, _ = handler(tmp_path)
    events({"event": "exited", "body": {"exitCode": 4}})
    events({"event": "terminated"})
    assert (state.state, state.view().exit_code) == ("exited", 4)


def test_an_adapter_death_names_what_becomes_of_a_launched_debuggee(tmp_path: Path) -> None:
    events, state, _, _ = handler(tmp_path)
    events({"event": "pyinspect.adapterClosed", "body": {"message": "EOF"}})
    assert state.state == "exited"
    assert state.end_message == ("the debug adapter ended unexpectedly: EOF; the launched debuggee is "
                                 "terminated")


def test_the_process_event_gives_the_pid(tmp_path: Path) -> None:
    events, state, _, _ = handler(tmp_path)
    events({"event": "process", "body": {"systemProcessId": 4321}})
    assert state.pid == 4321


def test_output_events_reach_the_buffer(tmp_path: Path) -> None:
    table, state, output = BreakpointTable(), DebuggeeState(), OutputBuffer()
    events = AdapterEvents(state, table, output, cast(DapClient, RecordingClient()))
    events({"event": "output", "body": {"category": "stdout", "output": "hello\n"}})
    assert [c.text for c in output.read(0, 100).chunks] == ["hello\n"]


def test_a_retired_handler_ignores_late_events(tmp_path: Path) -> None:
    events, state, _, _ = handler(tmp_path)
    events.retire()
    events(stopped(reason="pause", threadId=5))
    events({"event": "exited", "body": {"exitCode": 1}})
    assert state.state == "running" and state.view().exit_code is None
