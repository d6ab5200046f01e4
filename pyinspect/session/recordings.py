"""A session's one recording at a time (trace_start / trace_stop): which process it records
(by default the debug session's), and that nothing is left running when the session ends."""

from __future__ import annotations

import threading
from collections.abc import Callable

from pyinspect.errors import InvalidParameterError, NoTraceError, TraceRunningError
from pyinspect.models.trace import TraceAnswer, TraceStartAnswer
from pyinspect.session.state import DebuggeeState
from pyinspect.tracing.recorder import Recorder, start_recording

__all__ = ["Recordings"]


class Recordings:
    """Owns at most one running Recorder; start and stop are serialised by one lock."""

    def __init__(self, debuggee: DebuggeeState, debuggee_pid: Callable[[], int | None]) -> None:
        self._debuggee = debuggee
        self._debuggee_pid = debuggee_pid
        self._lock = threading.Lock()
        self._current: Recorder | None = None

    @property
    def active(self) -> bool:
        """A recording is running (ending the session would stop it unread)."""
        recorder = self._current
        return recorder is not None and recorder.running

    def start(self, pid: int | None, allocations: bool, gc: bool, max_seconds: float) -> TraceStartAnswer:
        with self._lock:
            if self._current is not None and self._current.running:
                raise TraceRunningError(
                    f"a recording of process {self._current.pid} is running: trace_stop it first",
                    pid=self._current.pid)
            if self._current is not None:
                self._current.close()  # ended by itself (time bound or exit); its answer is dropped
                self._current = None
            target = pid if pid is not None else self._default_pid()
            self.refuse_if_paused(target, "start")
            self._current = start_recording(target, allocations=allocations, gc=gc, max_seconds=max_seconds)
            what = " and ".join(n for n, on in (("allocations", allocations), ("GCs and counters", gc)) if on)
            return TraceStartAnswer(pid=target, runtime_version=self._current.runtime_version,
                                    allocations=allocations, gc=gc, max_seconds=max_seconds,
                                    message=f"recording {what} of process {target}; exercise the program, "
                                            f"then trace_stop (it stops by itself after {max_seconds:g} s)")

    def stop(self) -> TraceAnswer:
        with self._lock:
            recorder = self._current
            if recorder is None:
                raise NoTraceError("no recording is running: trace_start one first")
            if recorder.running:
                self.refuse_if_paused(recorder.pid, "stop")
            self._current = None
        return recorder.stop()

    def close(self) -> None:
        with self._lock:
            recorder, self._current = self._current, None
        if recorder is not None:
            recorder.close()

    def _default_pid(self) -> int:
        pid = self._debuggee_pid()
        if pid is None:
            raise InvalidParameterError("pid is required: no process is debugged (debug_launch or debug_attach)")
        return pid

    def refuse_if_paused(self, pid: int, doing: str) -> None:
        """The runtime answers an EventPipe session's start and stop on its own threads, which a
        debugger's pause holds: asking then would hang until the timeout, so say it at once."""
        if self._debuggee.state == "paused" and self._debuggee_pid() == pid:
            raise InvalidParameterError(
                f"process {pid} is paused by the debugger: its runtime can {doing} a recording only while it "
                f"runs; debug_continue first (the recording keeps what it has)", pid=pid)
