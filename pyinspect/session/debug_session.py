"""Session: the one stateful owner of a debug session.

It owns the adapter process (through the DAP client), the debuggee's state (a
DebuggeeState: not started / running / paused / exited, the current stop, the epoch),
the breakpoint table that survives launches, its heap workspace (``heaps``: the heap opened
on its own or the debuggee's, its graph and snapshots; pyinspect.session.heap_workspace)
and its recordings (``recordings``). The adapter's events reach the state through an
AdapterEvents handler, never through the Session. Reading frames, variables and values
lives in pyinspect.session.stop_reader, over per-stop caches; memory questions in
pyinspect.session.memory_reads.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pyinspect.dap.adapter import AdapterProcess, start_adapter
from pyinspect.dap.client import DapClient
from pyinspect.errors import (
    AdapterDiedError,
    AdapterError,
    InvalidParameterError,
    NoSessionError,
    NotPausedError,
    ProcessNotFoundError,
    PyInspectError,
)
from pyinspect.models.session import SessionState, StopLocation
from pyinspect.session.adapter_events import AdapterEvents
from pyinspect.session.breakpoint_control import BreakpointControl
from pyinspect.session.breakpoints import Breakpoint, BreakpointTable, send_all
from pyinspect.session.debuggee_process import ensure_dead, find_launched_pid
from pyinspect.session.heap_sources import DebuggeeLink
from pyinspect.session.heap_workspace import HeapWorkspace
from pyinspect.session.program_output import OutputBuffer
from pyinspect.session.recordings import Recordings
from pyinspect.session.snapshot_book import SnapshotBook
from pyinspect.session.state import DebuggeeState, LaunchMode, ended, not_running
from pyinspect.session.stop_reader import ResolvedValue, StopReader

if TYPE_CHECKING:
    from pyinspect.heap.reader import HeapReader
    from pyinspect.session.watchdog import Watchdog

__all__ = ["ResolvedValue", "Session"]

log = logging.getLogger(__name__)
StepMode = Literal["over", "into", "out"]
_SETTLE_TIMEOUT = 10.0
_NO_SESSION = "no debug session: call debug_launch or debug_attach first"
_DEATH_RECORDED_SECONDS = 5.0
"""How long a state answer waits, once the adapter process is gone, for its reader thread to
record the death (and what became of the debuggee)."""


class Session:
    """Thread-safe: MCP tools call it from worker threads, events arrive on the reader."""

    def __init__(self, adapter: str = "pyinspect", snapshots: SnapshotBook | None = None) -> None:
        """``snapshots``: the book its heap workspace keeps snapshots in, when shared with a
        client's other Sessions (pyinspect.session.snapshot_book)."""
        self.adapter_kind = adapter
        self.breakpoints = BreakpointTable()
        self._breakpoint_control = BreakpointControl(self.breakpoints, self._live_client)
        self.debuggee = DebuggeeState()
        self._lifecycle = threading.Lock()
        self._adapter: AdapterProcess | None = None
        self._events: AdapterEvents | None = None
        self._watchdog: Watchdog | None = None
        self.stop_reader = StopReader(self)
        self.output = OutputBuffer()
        self.heaps = HeapWorkspace(DebuggeeLink(self.debuggee, lambda: self.client, self.debuggee_pid,
                                                self.require_paused, self.resolve_value), snapshots)
        self.recordings = Recordings(self.debuggee, self.debuggee_pid)

    # ---- lifecycle -------------------------------------------------------------------

    @property
    def client(self) -> DapClient:
        adapter = self._adapter
        if adapter is None:
            raise NoSessionError(_NO_SESSION)
        return adapter.client

    @property
    def active_adapter(self) -> str | None:
        """The kind of adapter the current session runs ("pyinspect", "netcoredbg"), if any."""
        adapter = self._adapter
        return adapter.kind if adapter is not None else None

    def launch(self, program: str, args: list[str] | None = None, cwd: str | None = None,
               env: dict[str, str] | None = None, stop_at_entry: bool = False,
               adapter: str | None = None) -> SessionState:
        path = os.path.abspath(os.path.expanduser(program))
        if not os.path.isfile(path):
            raise InvalidParameterError(f"program not found: {program}", program=program)
        if cwd is not None and not os.path.isdir(cwd):
            raise InvalidParameterError(f"cwd is not a directory: {cwd}", cwd=cwd)
        with self._lifecycle:
            client = self._start(adapter, "launch", path, None)
            self._configure(client, lambda: client.launch(path, args, cwd, env, stop_at_entry))
            self._guard("launch")
            return self.snapshot()

    def attach(self, pid: int, adapter: str | None = None) -> SessionState:
        import psutil
        if pid <= 0 or not psutil.pid_exists(pid):
            raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid)
        with self._lifecycle:
            client = self._start(adapter, "attach", None, pid)
            self._configure(client, lambda: client.attach(pid))
            self._guard("attach")
            return self.snapshot()

    def _start(self, adapter: str | None, mode: LaunchMode, program: str | None, pid: int | None) -> DapClient:
        self._end_current(terminate=None)
        process = start_adapter(adapter or self.adapter_kind)
        events = AdapterEvents(self.debuggee, self.breakpoints, self.output, process.client)
        self._adapter, self._events = process, events
        self.debuggee.start(mode, program, pid)
        self.output.clear()
        self.breakpoints.new_session()
        process.client.add_listener(events)
        try:
            process.client.initialize()
            process.client.wait_event("initialized", timeout=_SETTLE_TIMEOUT)
        except PyInspectError:
            self._end_current(terminate=None)
            raise
        return process.client

    def _configure(self, client: DapClient, start: Callable[[], object]) -> None:
        """launch/attach, breakpoints and exception filters, then configurationDone lets the
        process run. On failure the session ends: a launched process dies, an attached one
        is left running."""
        try:
            start()
            send_all(client, self.breakpoints)
            client.configuration_done()
        except PyInspectError:
            self._end_current(terminate=None)
            raise

    def _guard(self, mode: str) -> None:
        """A watchdog ends a launched debuggee, or frees an attached one, if the adapter dies
        without doing so (pyinspect.session.watchdog)."""
        from pyinspect.session.watchdog import start_watchdog
        pid, process = self.debuggee_pid(), self._adapter
        if pid is not None and process is not None:
            self._watchdog = start_watchdog(process.proc.pid, pid, mode)

    def debuggee_pid(self) -> int | None:
        """The debuggee's pid: reported by the adapter, or found among its children."""
        view, process = self.debuggee.view(), self._adapter
        if view.pid is not None or process is None or view.program is None:
            return view.pid
        found = find_launched_pid(process.proc.pid, view.program)
        if found is not None:
            self.debuggee.learn_pid(found)
        return found

    def disconnect(self, terminate: bool | None = None) -> SessionState:
        with self._lifecycle:
            if self._adapter is None:
                raise NoSessionError("no debug session to disconnect")
            self._end_current(terminate, record=True)
            return self.snapshot()

    def _end_current(self, terminate: bool | None, record: bool = False) -> None:
        """Terminate what was launched, detach from what was attached (or as told); with
        record, the state's end message says which."""
        launched = self.debuggee.mode == "launch"
        pid = self.debuggee_pid() if launched else self.debuggee.pid
        had_exited = self.debuggee.state == "exited"
        process, self._adapter = self._adapter, None
        events, self._events = self._events, None
        watchdog, self._watchdog = self._watchdog, None
        if events is not None:
            events.retire()
        if watchdog is not None:
            watchdog.release()  # from here the session itself ends or leaves the debuggee
        self.heaps.debuggee_ended()
        if process is None:
            return
        kill = launched if terminate is None else terminate
        if process.is_alive:
            try:
                process.client.disconnect(terminate_debuggee=kill, timeout=_SETTLE_TIMEOUT)
            except AdapterError:
                pass
        process.close()
        self.breakpoints.unbind_all("not bound: no debug session (it ended); binds again at the next "
                                    "debug_launch/debug_attach")
        if kill and pid is not None:
            ensure_dead(pid)
        self.debuggee.close(_end_message(had_exited, kill) if record else None)

    def close(self) -> None:
        """End everything the session holds: its recording, the heap opened on its own, then
        any debug session (the server calls this when its client ends, and on shutdown)."""
        for close in (self.recordings.close, self.heaps.close_all):
            try:
                close()
            except Exception:
                log.exception("closing %s failed", getattr(close, "__qualname__", close))
        with self._lifecycle:
            self._end_current(terminate=None)

    # ---- state -----------------------------------------------------------------------

    def snapshot(self, timed_out: bool | None = None) -> SessionState:
        adapter = self._adapter
        if adapter is not None and not adapter.is_alive:
            self.debuggee.wait_for(ended, _DEATH_RECORDED_SECONDS)  # so the answer says what became of it
        view = self.debuggee.view()
        answer = SessionState(state=view.state, pid=view.pid, program=view.program, mode=view.mode,
                              adapter=adapter.kind if adapter else None, exit_code=view.exit_code,
                              message=view.end_message, timed_out=timed_out)
        stop = view.current_stop
        if view.state != "paused" or stop is None:
            return answer
        return answer.model_copy(update={
            "stop_reason": stop.reason, "description": stop.description, "thread_id": stop.thread_id,
            "hit_breakpoint_ids": stop.breakpoint_ids or None,
            "location": self._top_location(stop.thread_id, view.epoch)})

    def _top_location(self, thread_id: int, epoch: int) -> StopLocation | None:
        try:
            frames = self.stop_reader.raw_frames(thread_id, 0, 1)
        except PyInspectError:
            return None
        if not frames or epoch != self.debuggee.epoch:
            return None
        return StopLocation(**self.stop_reader.location_of(frames[0]).model_dump())

    def require_session(self) -> None:
        process, view = self._adapter, self.debuggee.view()
        if process is None:
            raise NoSessionError(_NO_SESSION)
        if not process.is_alive and view.state != "exited":
            raise AdapterDiedError(view.end_message or "the debug adapter ended; start a new session")
        if view.end_message and view.end_message.startswith("the debug adapter ended"):
            raise AdapterDiedError(f"{view.end_message}; start a new session with debug_launch or debug_attach")

    def require_paused(self) -> None:
        self.require_session()
        state = self.debuggee.state
        if state != "paused":
            raise NotPausedError(f"the process must be paused (it is {state}); use debug_pause or a breakpoint")

    def wait(self, timeout: float) -> SessionState:
        """Block until paused or exited, at most `timeout` seconds."""
        self.require_session()
        return self.snapshot(timed_out=not self.debuggee.wait_for(not_running, timeout))

    def current_thread(self) -> int | None:
        stop = self.debuggee.current_stop
        return stop.thread_id if stop is not None else None

    # ---- execution -------------------------------------------------------------------

    def resume(self, wait: bool = True, timeout: float = 30.0) -> SessionState:
        """Continue a paused process (debug_continue); with wait, until the next stop or exit."""
        self.require_paused()
        thread_id = self.current_thread() or 0
        self._send_resume(lambda: self.client.continue_(thread_id))
        return self.wait(timeout) if wait else self.snapshot()

    def step(self, mode: StepMode, thread_id: int | None = None, timeout: float = 30.0) -> SessionState:
        self.require_paused()
        thread = thread_id if thread_id is not None else self.current_thread()
        if thread is None:
            raise InvalidParameterError("no thread to step: pass thread_id")
        self.stop_reader.check_thread(thread)
        request = {"over": self.client.next, "into": self.client.step_in, "out": self.client.step_out}
        if mode not in request:
            raise InvalidParameterError(f"mode must be over, into or out, not {mode!r}", mode=mode)
        self._send_resume(lambda: request[mode](thread))
        return self.wait(timeout)

    def _send_resume(self, send: Callable[[], object]) -> None:
        """Mark running before the request goes out, so a quick stop event is never lost."""
        previous = self.debuggee.begin_resume()
        try:
            send()
        except PyInspectError:
            self.debuggee.resume_refused(previous)
            raise

    def pause(self, timeout: float = _SETTLE_TIMEOUT) -> SessionState:
        self.require_session()
        state = self.debuggee.state
        if state == "paused":
            return self.snapshot()
        if state != "running":
            raise NotPausedError(f"cannot pause: the process is {state}")
        self.client.pause(0)
        return self.wait(timeout)

    # ---- breakpoints (pyinspect.session.breakpoint_control) -------------------------------------

    def set_breakpoint(self, file: str | None, line: int | None, condition: str | None = None,
                       hit_count: int | None = None, function: str | None = None,
                       log_message: str | None = None) -> Breakpoint:
        return self._breakpoint_control.set(file, line, condition, hit_count, function, log_message)

    def remove_breakpoint(self, breakpoint_id: int) -> Breakpoint:
        return self._breakpoint_control.remove(breakpoint_id)

    def set_exception_breakpoint(self, filter_name: str, exception_type: str | None, clear: bool = False) -> bool:
        return self._breakpoint_control.set_exception_filter(filter_name, exception_type, clear)

    def _live_client(self) -> DapClient | None:
        """The client while a session runs or is paused (breakpoint changes go out at once)."""
        process = self._adapter
        if process is None or not process.is_alive or self.debuggee.state not in ("running", "paused"):
            return None
        return process.client

    # ---- values and the heap ---------------------------------------------------------

    def resolve_value(self, expression: str, thread_id: int | None = None, frame_index: int = 0) -> ResolvedValue:
        return self.stop_reader.resolve_value(expression, thread_id, frame_index)

    def forget_cached_reads(self) -> None:
        """The paused debuggee's state was written: cached reads (and the heap's) are stale."""
        self.debuggee.forget_reads()

    def heap(self) -> HeapReader:
        """The ClrMD reader on the debuggee's pid; flushed if the process ran since (the
        workspace's rule)."""
        if self._adapter is None:
            raise NoSessionError(_NO_SESSION)
        return self.heaps.debuggee_reader()

def _end_message(had_exited: bool, terminated: bool) -> str:
    if had_exited:
        return "session ended; the debuggee had already exited"
    return "terminated the debuggee" if terminated else "detached; the debuggee keeps running"
