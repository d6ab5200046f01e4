"""Session over our adapter attached to DebuggeeLoop: the state machine, pause and
continue, bounded waits, breakpoints kept before any session, detach leaving the
debuggee running."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.debuggee_loop import counter_moves, counting_loop
from support.targets import marker_line, target_source

from pyinspect.errors import NoSessionError, NotPausedError, UnknownThreadError
from pyinspect.session.debug_session import Session


@pytest.fixture
def debuggee(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter
        assert proc.poll() is None, "an attached debuggee must survive the session"


@pytest.fixture
def session() -> Iterator[Session]:
    made = Session()
    yield made
    made.close()


def test_a_new_session_has_no_process_and_says_so(session: Session) -> None:
    assert session.snapshot().state == "not_started"
    with pytest.raises(NoSessionError):
        session.require_paused()
    with pytest.raises(NoSessionError):
        session.wait(0.1)
    with pytest.raises(NoSessionError):
        session.disconnect()


def test_attach_pause_threads_continue(session: Session, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    assert session.attach(pid).state == "running"
    with pytest.raises(NotPausedError):
        session.require_paused()
    paused = session.pause()
    assert paused.state == "paused" and paused.stop_reason == "pause" and paused.thread_id
    assert not counter_moves(counter)
    threads = session.stop_reader.threads().threads
    assert len(threads) >= 2 and sum(t.is_current for t in threads) == 1
    assert all(t.state == "stopped" for t in threads)
    with pytest.raises(UnknownThreadError):
        session.stop_reader.stack_trace(987654321, 0, 20)
    running = session.resume(wait=False)
    assert running.state == "running"
    assert counter_moves(counter)


def test_wait_is_bounded_while_the_process_runs(session: Session, debuggee: tuple[int, Path]) -> None:
    session.attach(debuggee[0])
    started = time.monotonic()
    answer = session.wait(0.3)
    assert answer.state == "running" and answer.timed_out is True
    assert time.monotonic() - started < 1.5


def test_breakpoints_set_before_a_session_are_pending(session: Session) -> None:
    source = target_source("DebuggeeLoop")
    breakpoint = session.set_breakpoint(str(source), marker_line("DebuggeeLoop", "tick"), hit_count=3)
    assert breakpoint.info().verified is False and breakpoint.file == str(source)
    assert [b.id for b in session.breakpoints.all()] == [breakpoint.id]
    session.remove_breakpoint(breakpoint.id)
    assert session.breakpoints.all() == []


def test_disconnect_after_attach_detaches_and_the_debuggee_runs(session: Session,
                                                               debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    session.attach(pid)
    session.pause()
    answer = session.disconnect()
    assert answer.state == "not_started" and "detached" in (answer.message or "")
    assert counter_moves(counter)
