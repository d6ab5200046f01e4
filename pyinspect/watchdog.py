"""The watchdog: a tiny process, in its own session, that outlives the adapter and the
server so a debuggee is never left frozen by a debugger that died without letting go.

Why: when the debugger process dies without detaching (SIGKILL, OOM kill), the .NET
runtime keeps a stopped process stopped: its transport (dbgtransportsession.cpp) goes
to its resync state and waits for that same debugger, rejecting any other one
(RR_AlreadyAttached; a new attach times out with CORDBG_E_TIMEOUT, measured).

``python -m pyinspect.watchdog ADAPTER_PID DEBUGGEE_PID launch|attach`` polls both every
50 ms. When the adapter is gone and the debuggee is not: a launched debuggee is killed;
an attached one is released (pyinspect.runtime_transport: the runtime resumes and
accepts a new debugger), then attached and detached by a fresh adapter so nothing the
dead one set (breakpoints) stays behind. When only the server died, the adapter detaches
by itself on its closed input and the runtime is not waiting: nothing more is done.
A line ``release`` on stdin (the session ends as asked) ends the watch; end of stdin
alone (the server died) does not.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import psutil

__all__ = ["Watchdog", "start_watchdog"]

_POLL_SECONDS = 0.05


class Watchdog:
    """The server's handle on one watchdog process."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def release(self) -> None:
        """The session ended as asked: the watchdog leaves the debuggee alone and exits."""
        if self.proc.poll() is not None or self.proc.stdin is None:
            return
        try:
            self.proc.stdin.write(b"release\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(timeout=5)


def start_watchdog(adapter_pid: int, debuggee_pid: int, mode: str) -> Watchdog:
    """A watchdog in a new session (a signal to the server's process group spares it)."""
    proc = subprocess.Popen([sys.executable, "-m", "pyinspect.watchdog", str(adapter_pid), str(debuggee_pid), mode],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, close_fds=True)
    return Watchdog(proc)


def _process(pid: int) -> psutil.Process | None:
    try:
        return psutil.Process(pid)
    except psutil.NoSuchProcess:
        return None


def _alive(proc: psutil.Process) -> bool:
    """Running and the same process (a reused pid has another start time)."""
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _listen_for_release(released: threading.Event) -> None:
    for line in sys.stdin.buffer:
        if line.strip() == b"release":
            released.set()
            return


def watch(adapter_pid: int, debuggee_pid: int, mode: str) -> int:
    adapter, debuggee = _process(adapter_pid), _process(debuggee_pid)
    if adapter is None or debuggee is None:
        return 0
    released = threading.Event()
    threading.Thread(target=_listen_for_release, args=(released,), daemon=True).start()
    while not released.is_set() and _alive(debuggee):
        if not _alive(adapter):
            if mode == "launch":
                _kill(debuggee)
            else:
                _let_go(debuggee_pid)
            return 1
        time.sleep(_POLL_SECONDS)
    return 0


def _kill(debuggee: psutil.Process) -> None:
    try:
        debuggee.kill()
    except psutil.NoSuchProcess:
        pass


def _let_go(pid: int) -> None:
    """Resume a runtime left waiting for its dead debugger, then attach and detach once
    so the dead session's breakpoints go too."""
    from pyinspect.errors import PyInspectError
    from pyinspect.runtime_transport import release_orphaned_runtime

    if not release_orphaned_runtime(pid):
        return
    from pyinspect.dap.adapter import start_adapter

    process = start_adapter("pyinspect")
    try:
        process.client.initialize()
        process.client.attach(pid)
        process.client.configuration_done()
        process.client.disconnect(terminate_debuggee=False)
    except PyInspectError as exc:
        print(f"pyinspect watchdog: re-attaching to {pid} to detach failed: {exc}", file=sys.stderr)
    finally:
        process.close()


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not (argv[0].isdigit() and argv[1].isdigit()) or argv[2] not in ("launch", "attach"):
        print("usage: python -m pyinspect.watchdog ADAPTER_PID DEBUGGEE_PID launch|attach", file=sys.stderr)
        return 2
    if hasattr(os, "setsid") and os.getpid() != os.getsid(0):
        try:
            os.setsid()
        except OSError:
            pass  # already a session leader
    return watch(int(argv[0]), int(argv[1]), argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
