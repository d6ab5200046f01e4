"""DebuggeeState: where the debugged process stands, owned in one place.

The state (not_started / running / paused / exited), the current stop, the epoch,
the pid, the exit code and the session's end message live here, under one lock, and
change only through the named transitions below. Callers on any thread read a
consistent :class:`StateView`; waiters block on one condition with a bound (debugpy's
``wait_for(predicate, timeout)`` model). Nothing here talks to a process, so every
transition is testable on its own.

The epoch moves on whenever what was read at a stop may no longer hold (a resume, a
stop, an end, a write into the paused debuggee): frame ids and cached reads die with it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pyinspect.models.session import SessionStateName

__all__ = ["DebuggeeState", "LaunchMode", "StateView", "Stop", "ended", "not_running"]

LaunchMode = Literal["launch", "attach"]


@dataclass(frozen=True)
class Stop:
    """Why and where the process is paused: the adapter's `stopped` event, with the ids of
    pyinspect's breakpoints that were hit."""

    reason: str
    thread_id: int
    description: str | None = None
    breakpoint_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class StateView:
    """One consistent reading of the state (taken under the lock)."""

    state: SessionStateName
    current_stop: Stop | None
    epoch: int
    pid: int | None
    exit_code: int | None
    end_message: str | None
    program: str | None
    mode: LaunchMode | None


def not_running(view: StateView) -> bool:
    """Paused, exited or not started: what a caller waiting for a stop waits for."""
    return view.state != "running"


def ended(view: StateView) -> bool:
    """Neither running nor paused: the adapter's death is recorded by its reader thread,
    which may lag the process's exit."""
    return view.state not in ("running", "paused")


class DebuggeeState:
    """Thread-safe: tools change it from worker threads, adapter events from the DAP reader."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._changed = threading.Condition(self.lock)
        self._state: SessionStateName = "not_started"
        self._stop: Stop | None = None
        self._epoch = 0
        self._pid: int | None = None
        self._exit_code: int | None = None
        self._end_message: str | None = None
        self._program: str | None = None
        self._mode: LaunchMode | None = None

    # ---- reading -----------------------------------------------------------------------

    def view(self) -> StateView:
        with self.lock:
            return StateView(self._state, self._stop, self._epoch, self._pid, self._exit_code,
                             self._end_message, self._program, self._mode)

    @property
    def state(self) -> SessionStateName:
        with self.lock:
            return self._state

    @property
    def current_stop(self) -> Stop | None:
        with self.lock:
            return self._stop

    @property
    def epoch(self) -> int:
        with self.lock:
            return self._epoch

    @property
    def pid(self) -> int | None:
        with self.lock:
            return self._pid

    @property
    def mode(self) -> LaunchMode | None:
        with self.lock:
            return self._mode

    @property
    def program(self) -> str | None:
        with self.lock:
            return self._program

    @property
    def end_message(self) -> str | None:
        with self.lock:
            return self._end_message

    def wait_for(self, predicate: Callable[[StateView], bool], timeout: float) -> bool:
        """Block until predicate holds of the state, at most timeout seconds; whether it holds
        (debugpy's ``wait_for(predicate, timeout)``: every waiter waits on this one condition)."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self.view()), timeout)

    # ---- transitions -------------------------------------------------------------------

    def start(self, mode: LaunchMode, program: str | None, pid: int | None = None) -> None:
        """A new adapter is starting a launch or an attach: running, nothing known yet."""
        with self._changed:
            self._state, self._stop, self._exit_code, self._end_message = "running", None, None, None
            self._pid, self._program, self._mode = pid, program, mode
            self._next_epoch()

    def learn_pid(self, pid: int) -> None:
        """The debuggee's pid, from the adapter's `process` event or found among its children."""
        with self.lock:
            self._pid = pid

    def pause_at(self, stop: Stop) -> None:
        """The adapter reported a stop that is one for the user (not a skipped hit)."""
        with self._changed:
            self._state, self._stop = "paused", stop
            self._next_epoch()

    def begin_resume(self) -> Stop | None:
        """Mark running before a continue/step request goes out, so a quick stop event is
        never lost; returns the stop left, for :meth:`resume_refused`."""
        with self._changed:
            previous = self._stop
            self._state, self._stop = "running", None
            self._next_epoch()
            return previous

    def resume_refused(self, previous: Stop | None) -> None:
        """The adapter refused the resume: paused where it was, unless an event moved on."""
        with self._changed:
            if self._state == "running" and self._stop is None:
                self._state, self._stop = "paused", previous
                self._changed.notify_all()

    def end(self, exit_code: int | None = None, message: str | None = None) -> None:
        """The debuggee exited, or the adapter ended (message says what became of it)."""
        with self._changed:
            if exit_code is not None:
                self._exit_code = exit_code
            if self._state in ("running", "paused"):
                if message is not None:
                    self._end_message = message
                self._state, self._stop = "exited", None
                self._next_epoch()
            self._changed.notify_all()

    def close(self, message: str | None = None) -> None:
        """The session ended (disconnect, or a new session replacing it)."""
        with self._changed:
            self._state, self._stop = "not_started", None
            if message is not None:
                self._end_message = message
            self._next_epoch()

    def forget_reads(self) -> None:
        """The paused debuggee was written (an assignment, a func-eval): reads made at this
        stop may be stale, so the epoch moves on without leaving the stop."""
        with self.lock:
            self._epoch += 1

    def _next_epoch(self) -> None:
        self._epoch += 1
        self._changed.notify_all()
