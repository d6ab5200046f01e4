"""DebuggeeState's transitions, without a process: what each one leaves behind."""

from __future__ import annotations

import threading
import time

from pyinspect.session.state import DebuggeeState, Stop, not_running

AT_BREAKPOINT = Stop(reason="breakpoint", thread_id=7, breakpoint_ids=[1])


def running() -> DebuggeeState:
    state = DebuggeeState()
    state.start("launch", "/bin/App.dll")
    return state


def test_a_new_state_has_not_started_and_knows_nothing() -> None:
    view = DebuggeeState().view()
    assert (view.state, view.current_stop, view.pid, view.exit_code, view.mode) == ("not_started", None, None,
                                                                                    None, None)


def test_start_runs_and_forgets_the_previous_session() -> None:
    state = running()
    state.end(exit_code=3)
    state.start("attach", None, pid=42)
    view = state.view()
    assert (view.state, view.pid, view.exit_code, view.mode, view.program) == ("running", 42, None, "attach", None)


def test_every_transition_that_ends_what_was_read_moves_the_epoch() -> None:
    state = running()
    seen = [state.epoch]
    state.pause_at(AT_BREAKPOINT)
    seen.append(state.epoch)
    state.forget_reads()
    seen.append(state.epoch)
    state.begin_resume()
    seen.append(state.epoch)
    state.end(exit_code=0)
    seen.append(state.epoch)
    state.close()
    seen.append(state.epoch)
    assert seen == sorted(set(seen))


def test_forgetting_reads_keeps_the_stop() -> None:
    state = running()
    state.pause_at(AT_BREAKPOINT)
    state.forget_reads()
    assert state.state == "paused" and state.current_stop == AT_BREAKPOINT


def test_a_refused_resume_returns_to_the_stop_it_left() -> None:
    state = running()
    state.pause_at(AT_BREAKPOINT)
    previous = state.begin_resume()
    assert state.state == "running" and state.current_stop is None
    state.resume_refused(previous)
    assert state.state == "paused" and state.current_stop == AT_BREAKPOINT


def test_a_refused_resume_does_not_undo_a_stop_that_arrived_meanwhile() -> None:
    state = running()
    state.pause_at(AT_BREAKPOINT)
    previous = state.begin_resume()
    newer = Stop(reason="step", thread_id=8)
    state.pause_at(newer)
    state.resume_refused(previous)
    assert state.current_stop == newer


def test_an_exit_keeps_its_code_and_drops_the_stop() -> None:
    state = running()
    state.pause_at(AT_BREAKPOINT)
    state.end(exit_code=4)
    view = state.view()
    assert (view.state, view.exit_code, view.current_stop) == ("exited", 4, None)


def test_an_exit_code_arriving_after_terminated_is_still_kept() -> None:
    state = running()
    state.end()
    state.end(exit_code=9, message="late")
    view = state.view()
    assert (view.state, view.exit_code, view.end_message) == ("exited", 9, None)


def test_an_adapter_death_says_what_became_of_the_debuggee() -> None:
    state = running()
    state.end(message="the debug adapter ended unexpectedly: EOF")
    assert state.end_message == "the debug adapter ended unexpectedly: EOF"


def test_close_returns_to_not_started_with_its_message() -> None:
    state = running()
    state.close("detached; the debuggee keeps running")
    view = state.view()
    assert (view.state, view.end_message) == ("not_started", "detached; the debuggee keeps running")


def test_waiting_times_out_while_running() -> None:
    started = time.monotonic()
    assert running().wait_for(not_running, 0.05) is False
    assert time.monotonic() - started >= 0.05


def test_waiting_ends_at_once_when_not_running() -> None:
    state = running()
    state.pause_at(AT_BREAKPOINT)
    assert state.wait_for(not_running, 5.0) is True


def test_a_stop_from_another_thread_wakes_the_waiter() -> None:
    state = running()
    threading.Timer(0.05, state.pause_at, args=(AT_BREAKPOINT,)).start()
    started = time.monotonic()
    assert state.wait_for(not_running, 10.0) is True
    assert time.monotonic() - started < 5.0 and state.current_stop == AT_BREAKPOINT
