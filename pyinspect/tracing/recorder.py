"""One recording: the PyInspect.Trace helper process attached to a target over its
diagnostics socket. The helper writes JSON lines (started, progress, result or error) on
stdout; a "stop" line on its stdin (or closing it) ends the recording. A thread reads the
lines so that progress is always current and no wait can hang: every wait is bounded, and
close() kills a helper that lingers, so nothing is left running."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from typing import Any

from pyinspect.errors import (
    ErrorCode,
    InvalidParameterError,
    NotDotNetProcessError,
    PyInspectError,
    SetupMissingError,
)
from pyinspect.models.trace import TraceAnswer
from pyinspect.targets.diagnostics_ipc import find_diagnostics_socket
from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool
from pyinspect.targets.process_view import view_of
from pyinspect.targets.runtimes import runtime_of

__all__ = ["MAX_SECONDS", "Recorder", "start_recording"]

MAX_SECONDS = 3600.0
"""The longest recording: the helper stops by itself after max_seconds (at most this)."""
_START_TIMEOUT = 30.0
_PARSE_TIMEOUT = 300.0


class Recorder:
    """A running recording of one process. Use start_recording() to make one."""

    def __init__(self, pid: int, runtime_version: str, allocations: bool, gc: bool, max_seconds: float,
                 proc: subprocess.Popen[str]) -> None:
        self.pid = pid
        self.runtime_version = runtime_version
        self.allocations = allocations
        self.gc = gc
        self.max_seconds = max_seconds
        self.started_at = time.monotonic()
        self._proc = proc
        self._lines: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name=f"trace-{pid}", daemon=True)
        self._reader.start()

    @property
    def running(self) -> bool:
        """True until the helper has answered (stopped, timed out, or the target exited)."""
        return self._final() is None and self._proc.poll() is None

    @property
    def helper_pid(self) -> int:
        """The recorder process's pid (benchmarks read its CPU time)."""
        return self._proc.pid

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started_at

    def progress(self) -> dict[str, Any] | None:
        """The helper's last progress line: seconds recorded and bytes of events received."""
        with self._changed:
            found = [line for line in self._lines if line.get("event") == "progress"]
        return found[-1] if found else None

    def stop(self, timeout: float = _PARSE_TIMEOUT) -> TraceAnswer:
        """End the recording (if still running) and answer its tables; the helper reads the
        events after the session ends, which takes a few seconds."""
        self._send_stop()
        line = self._wait_final(timeout)
        self.close()
        if line is None:
            raise PyInspectError(f"the recorder of process {self.pid} gave no answer within {timeout:.0f} s",
                                 code=ErrorCode.TIMEOUT, pid=self.pid)
        if line["event"] == "error":
            raise PyInspectError(str(line.get("message")), code=_code(line.get("code")), pid=self.pid)
        body = {k: v for k, v in line.items() if k != "event"}
        answer = TraceAnswer.model_validate({**body, "runtimeVersion": self.runtime_version})
        if answer.target_exited:
            answer = answer.model_copy(update={"message": f"process {self.pid} exited during the recording: "
                                                          "the tables cover the window until it exited"})
        return answer

    def close(self) -> None:
        """Make sure the helper is gone (a recording stopped or not)."""
        if self._proc.poll() is None:
            self._send_stop()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=5)
        self._reader.join(timeout=5)
        if self._proc.stdout is not None:
            self._proc.stdout.close()

    def _send_stop(self) -> None:
        stdin = self._proc.stdin
        if stdin is None or stdin.closed:
            return
        try:
            stdin.write("stop\n")
            stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass  # the helper already ended

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for text in self._proc.stdout:
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                continue
            with self._changed:
                self._lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self._lines.append({"event": "ended"})
            self._changed.notify_all()

    def _final(self) -> dict[str, Any] | None:
        with self._changed:
            return next((x for x in self._lines if x.get("event") in ("result", "error")), None)

    def _wait_final(self, timeout: float) -> dict[str, Any] | None:
        with self._changed:
            self._changed.wait_for(
                lambda: any(x.get("event") in ("result", "error", "ended") for x in self._lines), timeout)
        return self._final()

    def wait_started(self, timeout: float = _START_TIMEOUT) -> None:
        """Block until the session runs; raise the helper's coded error if it could not start."""
        with self._changed:
            self._changed.wait_for(
                lambda: any(x.get("event") in ("started", "error", "ended") for x in self._lines), timeout)
            first = next((x for x in self._lines if x.get("event") in ("started", "error", "ended")), None)
        if first is not None and first["event"] == "started":
            self.started_at = time.monotonic()  # the window opens now, not when the helper was started
            return
        self.close()
        if first is not None and first["event"] == "error":
            raise PyInspectError(str(first.get("message")), code=_code(first.get("code")), pid=self.pid)
        raise PyInspectError(f"the runtime of process {self.pid} did not start a recording within {timeout:.0f} s "
                             "(a process stopped by a debugger or a signal cannot)", code=ErrorCode.TIMEOUT,
                             pid=self.pid)


def start_recording(pid: int, *, allocations: bool = True, gc: bool = True,
                    max_seconds: float = 600.0) -> Recorder:
    """Start recording pid's runtime events; returns once the EventPipe session runs.
    Raises ProcessNotFoundError / NotDotNetProcessError for a pid that cannot be recorded."""
    if pid < 1:
        raise InvalidParameterError(f"pid must be positive, got {pid}", pid=pid)
    if not allocations and not gc:
        raise InvalidParameterError("record allocations, gc or both")
    if not 0 < max_seconds <= MAX_SECONDS:
        raise InvalidParameterError(f"max_seconds must be in (0, {MAX_SECONDS:.0f}], got {max_seconds}")
    runtime = runtime_of(pid)
    command = [str(dotnet_host()), str(dotnet_tool("PyInspect.Trace")), "--pid", str(pid),
               "--socket", _socket(pid), "--max-seconds", str(max_seconds)]
    command += ["--allocations"] if allocations else []
    command += ["--gc"] if gc else []
    command += ["--randomized-sampling"] if allocations and _major(runtime.version) >= 10 else []
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    except OSError as exc:
        raise SetupMissingError(f"cannot start the recorder: {exc}") from exc
    recorder = Recorder(pid, runtime.version, allocations, gc, max_seconds, proc)
    recorder.wait_started()
    return recorder


def _socket(pid: int) -> str:
    """The runtime's diagnostics socket as the recorder reaches it: in the process's own temp
    folder, named by its pid inside, through its root when it runs in a container."""
    view = view_of(pid)
    socket = find_diagnostics_socket(view)
    if socket is None:
        raise NotDotNetProcessError(
            f"process {pid} has no .NET diagnostics socket in its temp folder {view.temp_folder}: its runtime's "
            "diagnostics are off (DOTNET_EnableDiagnostics=0) or it has not started yet", pid=pid)
    return socket


def _major(version: str) -> int:
    """10 for "10.0.12": the randomized allocation sampling (event AllocationSampled) came with .NET 10."""
    head = version.split(".", 1)[0]
    return int(head) if head.isdigit() else 0


def _code(value: object) -> ErrorCode:
    try:
        return ErrorCode(str(value))
    except ValueError:
        return ErrorCode.INTERNAL_ERROR
