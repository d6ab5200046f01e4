"""Session: the one stateful owner of a debug session.

It owns the adapter process (through the DAP client), the state (not started /
running / paused / exited), the current stop, the breakpoint table that survives
launches, and the heap reader on the same pid (created lazily, so CoreCLR loads only
when a heap tool needs it; flushed whenever the process stopped since its last use).
Adapter events update the state on the DAP reader thread, under one lock; calls that
wait do so on a condition with a bound. Reading frames, variables and values lives in
pyinspect.inspection, over the session's per-stop caches.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pyinspect import _session_events as events
from pyinspect.breakpoints import Breakpoint, BreakpointTable
from pyinspect.dap.adapter import AdapterProcess, start_adapter
from pyinspect.dap.client import DapClient
from pyinspect.errors import (
    AdapterDiedError,
    AdapterError,
    InvalidParameterError,
    NoSessionError,
    NotPausedError,
    PyInspectError,
)
from pyinspect.inspection import Inspector, ResolvedValue
from pyinspect.models.session import SessionState, StopLocation
from pyinspect.process_output import OutputBuffer

if TYPE_CHECKING:
    from pyinspect.heap.reader import HeapReader
    from pyinspect.watchdog import Watchdog

__all__ = ["ResolvedValue", "Session"]

StepMode = Literal["over", "into", "out"]
_SETTLE_TIMEOUT = 10.0


class Session:
    """Thread-safe: MCP tools call it from worker threads, events arrive on the reader."""

    def __init__(self, adapter: str = "pyinspect") -> None:
        self.adapter_kind = adapter
        self.breakpoints = BreakpointTable()
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self._lifecycle = threading.Lock()
        self._adapter: AdapterProcess | None = None
        self.state: str = "not_started"
        self.stop: events.Stop | None = None
        self.epoch = 0  # bumped at every resume: frame ids and caches die with it
        self.exit_code: int | None = None
        self.end_message: str | None = None
        self.pid: int | None = None
        self.program: str | None = None
        self.mode: Literal["launch", "attach"] | None = None
        self._heap: HeapReader | None = None
        self._heap_epoch = -1
        self._heap_lock = threading.Lock()
        self._watchdog: Watchdog | None = None
        self.inspector = Inspector(self)
        self.output = OutputBuffer()

    # ---- lifecycle -------------------------------------------------------------------

    @property
    def client(self) -> DapClient:
        if self._adapter is None:
            raise NoSessionError("no debug session: call debug_launch or debug_attach first")
        return self._adapter.client

    @property
    def active_adapter(self) -> str | None:
        """The kind of adapter the current session runs ("pyinspect", "netcoredbg"), if any."""
        with self.lock:
            return self._adapter.kind if self._adapter is not None else None

    def launch(self, program: str, args: list[str] | None = None, cwd: str | None = None,
               env: dict[str, str] | None = None, stop_at_entry: bool = False,
               adapter: str | None = None) -> SessionState:
        import os
        path = os.path.abspath(os.path.expanduser(program))
        if not os.path.isfile(path):
            raise InvalidParameterError(f"program not found: {program}", program=program)
        if cwd is not None and not os.path.isdir(cwd):
            raise InvalidParameterError(f"cwd is not a directory: {cwd}", cwd=cwd)
        with self._lifecycle:
            client = self._start(adapter, "launch", path)
            self._configure(client, lambda: client.launch(path, args, cwd, env, stop_at_entry))
            self._guard("launch")
            return self.snapshot()

    def attach(self, pid: int, adapter: str | None = None) -> SessionState:
        import psutil
        if pid <= 0 or not psutil.pid_exists(pid):
            from pyinspect.errors import ProcessNotFoundError
            raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid)
        with self._lifecycle:
            client = self._start(adapter, "attach", None)
            with self.lock:
                self.pid = pid
            self._configure(client, lambda: client.attach(pid))
            self._guard("attach")
            return self.snapshot()

    def _start(self, adapter: str | None, mode: Literal["launch", "attach"], program: str | None) -> DapClient:
        self._end_current(terminate=None)
        process = start_adapter(adapter or self.adapter_kind)
        with self.lock:
            self._adapter = process
            self.state, self.stop, self.exit_code, self.end_message = "running", None, None, None
            self.pid, self.program, self.mode = None, program, mode
            self.epoch += 1
        self.output.clear()
        self.breakpoints.unbind_all("not bound yet")
        process.client.add_listener(lambda event: events.on_event(self, process, event))
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
            for file in self.breakpoints.files():
                self.send_breakpoints(client, file)
            if self.breakpoints.functions():
                self.send_function_breakpoints(client)
            filters, options = self.breakpoints.exception_request()
            if filters:
                client.set_exception_breakpoints(filters, options)
            client.configuration_done()
        except PyInspectError:
            self._end_current(terminate=None)
            raise

    def _guard(self, mode: str) -> None:
        """A watchdog ends a launched debuggee, or frees an attached one, if the adapter dies
        without doing so (pyinspect.watchdog)."""
        from pyinspect.watchdog import start_watchdog
        pid = self.pid or events.find_launched_pid(self)
        with self.lock:
            process = self._adapter
        if pid is not None and process is not None:
            self._watchdog = start_watchdog(process.proc.pid, pid, mode)

    def send_breakpoints(self, client: DapClient, file: str) -> None:
        sent: list[Breakpoint] = self.breakpoints.in_file(file)
        results = client.set_breakpoints(file, [b.request() for b in sent])
        self.breakpoints.apply_results(sent, results)

    def send_function_breakpoints(self, client: DapClient) -> None:
        sent = self.breakpoints.functions()
        self.breakpoints.apply_results(sent, client.set_function_breakpoints([b.request() for b in sent]))

    def disconnect(self, terminate: bool | None = None) -> SessionState:
        with self._lifecycle:
            if self._adapter is None:
                raise NoSessionError("no debug session to disconnect")
            message = self._end_current(terminate)
            with self.lock:
                self.end_message = message
            return self.snapshot()

    def _end_current(self, terminate: bool | None) -> str | None:
        """Terminate what was launched, detach from what was attached (or as told)."""
        launched = self.mode == "launch"
        pid = self.pid or (events.find_launched_pid(self) if launched else None)
        with self.lock:
            process, self._adapter = self._adapter, None
            heap, self._heap = self._heap, None
            watchdog, self._watchdog = self._watchdog, None
            had_exited = self.state == "exited"
        if watchdog is not None:
            watchdog.release()  # from here the session itself ends or leaves the debuggee
        if heap is not None:
            heap.close()
        if process is None:
            return None
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
            events.ensure_dead(pid)
        with self.lock:
            self.state, self.stop = "not_started", None
            self.epoch += 1
            self.changed.notify_all()
        if had_exited:
            return "session ended; the debuggee had already exited"
        return "terminated the debuggee" if kill else "detached; the debuggee keeps running"

    def close(self) -> None:
        """End any session (the server's lifespan calls this on shutdown)."""
        with self._lifecycle:
            self._end_current(terminate=None)

    # ---- state -----------------------------------------------------------------------

    def snapshot(self, timed_out: bool | None = None) -> SessionState:
        with self.lock:
            stop, state, epoch = self.stop, self.state, self.epoch
            base: dict[str, Any] = {
                "state": state, "pid": self.pid, "program": self.program, "mode": self.mode,
                "adapter": self._adapter.kind if self._adapter else None,
                "exit_code": self.exit_code, "message": self.end_message, "timed_out": timed_out}
        if state == "paused" and stop is not None:
            base.update(stop_reason=stop.reason, description=stop.description, thread_id=stop.thread_id,
                        hit_breakpoint_ids=stop.breakpoint_ids or None,
                        location=self._top_location(stop.thread_id, epoch))
        return SessionState(**base)

    def _top_location(self, thread_id: int, epoch: int) -> StopLocation | None:
        try:
            frames = self.inspector.raw_frames(thread_id, 0, 1)
        except PyInspectError:
            return None
        if not frames or epoch != self.epoch:
            return None
        return StopLocation(**self.inspector.location_of(frames[0]).model_dump())

    def require_session(self) -> None:
        with self.lock:
            if self._adapter is None:
                raise NoSessionError("no debug session: call debug_launch or debug_attach first")
            if not self._adapter.is_alive and self.state != "exited":
                raise AdapterDiedError(self.end_message or "the debug adapter ended; start a new session")
            if self.end_message and self.end_message.startswith("the debug adapter ended"):
                raise AdapterDiedError(f"{self.end_message}; start a new session with debug_launch or debug_attach")

    def require_paused(self) -> None:
        self.require_session()
        with self.lock:
            if self.state != "paused":
                raise NotPausedError(f"the process must be paused (it is {self.state}); "
                                     "use debug_pause or a breakpoint")

    def wait(self, timeout: float) -> SessionState:
        """Block until paused or exited, at most `timeout` seconds."""
        self.require_session()
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.state == "running":
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.changed.wait(left)
            timed_out = self.state == "running"
        return self.snapshot(timed_out=timed_out)

    def current_thread(self) -> int | None:
        with self.lock:
            return self.stop.thread_id if self.stop is not None else None

    # ---- execution -------------------------------------------------------------------

    def continue_(self, wait: bool = True, timeout: float = 30.0) -> SessionState:
        self.require_paused()
        thread_id = self.current_thread() or 0
        self._resume(lambda: self.client.continue_(thread_id))
        return self.wait(timeout) if wait else self.snapshot()

    def step(self, mode: StepMode, thread_id: int | None = None, timeout: float = 30.0) -> SessionState:
        self.require_paused()
        thread = thread_id if thread_id is not None else self.current_thread()
        if thread is None:
            raise InvalidParameterError("no thread to step: pass thread_id")
        self.inspector.check_thread(thread)
        request = {"over": self.client.next, "into": self.client.step_in, "out": self.client.step_out}
        if mode not in request:
            raise InvalidParameterError(f"mode must be over, into or out, not {mode!r}", mode=mode)
        self._resume(lambda: request[mode](thread))
        return self.wait(timeout)

    def note_change(self) -> None:
        """The paused debuggee's state was written: cached reads (and the heap's) are stale."""
        with self.lock:
            self.epoch += 1

    def _resume(self, send: Any) -> None:
        """Mark running before the request goes out, so a quick stop event is never lost."""
        with self.lock:
            previous = self.stop
            self.state, self.stop = "running", None
            self.epoch += 1
        try:
            send()
        except PyInspectError:
            with self.lock:
                if self.state == "running" and self.stop is None:
                    self.state, self.stop = "paused", previous
            raise

    def pause(self, timeout: float = _SETTLE_TIMEOUT) -> SessionState:
        self.require_session()
        with self.lock:
            if self.state == "paused":
                return self.snapshot()
            if self.state != "running":
                raise NotPausedError(f"cannot pause: the process is {self.state}")
        self.client.pause(0)
        return self.wait(timeout)

    # ---- breakpoints -----------------------------------------------------------------

    def set_breakpoint(self, file: str | None, line: int | None, condition: str | None = None,
                       hit_count: int | None = None, function: str | None = None,
                       log_message: str | None = None) -> Breakpoint:
        """A line breakpoint (file and line) or a function breakpoint (function); the
        condition is parsed first (a syntax error is refused here, not at the stop)."""
        _check_condition(condition)
        if function is not None:
            if file is not None or line is not None:
                raise InvalidParameterError("give either function, or file and line, not both")
            breakpoint = self.breakpoints.add_function(function, condition, hit_count, log_message)
        elif file is None or line is None:
            raise InvalidParameterError("give file and line (a line breakpoint) or function")
        else:
            breakpoint = self.breakpoints.add(file, line, condition, hit_count, log_message)
        self._resend(breakpoint)
        return breakpoint

    def remove_breakpoint(self, breakpoint_id: int) -> Breakpoint:
        breakpoint = self.breakpoints.remove(breakpoint_id)
        self._resend(breakpoint)
        return breakpoint

    def set_exception_breakpoint(self, filter_name: str, exception_type: str | None, clear: bool = False) -> bool:
        self.breakpoints.set_exception_filter(filter_name, exception_type, clear)
        if not self._is_live():
            return False
        filters, options = self.breakpoints.exception_request()
        self.client.set_exception_breakpoints(filters, options)
        return True

    def _resend(self, breakpoint: Breakpoint) -> None:
        if not self._is_live():
            return
        if breakpoint.file is not None:
            self.send_breakpoints(self.client, breakpoint.file)
        else:
            self.send_function_breakpoints(self.client)

    def _is_live(self) -> bool:
        with self.lock:
            return self._adapter is not None and self._adapter.is_alive and self.state in ("running", "paused")

    # ---- values and the heap ---------------------------------------------------------

    def resolve_value(self, expression: str, thread_id: int | None = None, frame_index: int = 0) -> ResolvedValue:
        return self.inspector.resolve_value(expression, thread_id, frame_index)

    def heap(self) -> HeapReader:
        """The ClrMD reader on the debuggee's pid; flushed if the process ran since."""
        with self.lock:
            if self._adapter is None:
                raise NoSessionError("no debug session: call debug_launch or debug_attach first")
            epoch = self.epoch
        pid = self.pid or events.find_launched_pid(self)
        if pid is None:
            raise NoSessionError("the debuggee's process id is not known yet")
        with self._heap_lock:
            if self._heap is None:
                from pyinspect.heap.reader import HeapReader
                self._heap = HeapReader.attach(pid, suspend=False)
            elif self._heap_epoch != epoch:
                self._heap.flush()
            self._heap_epoch = epoch
            return self._heap


def _check_condition(condition: str | None) -> None:
    if not condition or not condition.strip():
        return
    from pyinspect.heap._runtime import csharp_syntax_errors  # Roslyn, loaded on first condition
    errors = csharp_syntax_errors(condition)
    if errors:
        raise InvalidParameterError(f"condition {condition!r} is not a C# expression: {'; '.join(errors)}",
                                    condition=condition)
