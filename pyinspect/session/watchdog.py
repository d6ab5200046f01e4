"""The watchdog: a tiny process, in its own session, that outlives the adapter and the
server so a debuggee is never left frozen by a debugger that died without letting go.

Why: when the debugger process dies without detaching (SIGKILL, OOM kill), the .NET
runtime keeps a stopped process stopped: its transport (dbgtransportsession.cpp) goes
to its resync state and waits for that same debugger, rejecting any other one
(RR_AlreadyAttached; a new attach times out with CORDBG_E_TIMEOUT, measured).

``python -m pyinspect.session.watchdog ADAPTER_PID DEBUGGEE_PID launch|attach`` polls both every
50 ms. When the adapter is gone and the debuggee is not: a launched debuggee is killed;
an attached one is released (pyinspect.session.orphan_release: the runtime resumes and
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

from pyinspect.targets.runtime_files import remove_runtime_files

__all__ = ["Watchdog", "start_watchdog"]

_POLL_SECONDS = 0.05
_NOTICE_SECONDS = 0.5


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
    log = os.environ.get("PYINSPECT_WATCHDOG_LOG")
    with open(log or os.devnull, "ab") as errors:
        proc = subprocess.Popen([sys.executable, "-m", "pyinspect.session.watchdog", str(adapter_pid), str(debuggee_pid),
                                 mode], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors,
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
    """The launched debuggee goes with its dead debugger, and its runtime's files with it."""
    try:
        debuggee.kill()
    except psutil.NoSuchProcess:
        pass
    remove_runtime_files(debuggee.pid)


def _let_go(pid: int, rounds: int = 3) -> None:
    """Resume a runtime left waiting for its dead debugger, then attach and detach once
    so the dead session's breakpoints go too. An adapter that dies during that attach
    leaves the runtime waiting again: then once more, a few times at most."""
    from pyinspect.session.orphan_release import release_orphaned_runtime

    for _ in range(rounds):
        time.sleep(_NOTICE_SECONDS)  # the runtime notices the dead connection (its reader gets EOF)
        if not release_orphaned_runtime(pid):
            print(f"pyinspect watchdog: the runtime of {pid} is not waiting for a dead debugger", file=sys.stderr)
            return
        print(f"pyinspect watchdog: released the runtime of {pid}; attaching to detach", file=sys.stderr)
        if _attach_and_detach(pid):
            print(f"pyinspect watchdog: detached from {pid}", file=sys.stderr)
            return


def _attach_and_detach(pid: int) -> bool:
    from pyinspect.dap.adapter import start_adapter
    from pyinspect.errors import PyInspectError

    process = start_adapter("pyinspect")
    try:
        process.client.initialize()
        process.client.attach(pid)
        process.client.configuration_done()
        process.client.disconnect(terminate_debuggee=False)
        return True
    except PyInspectError as exc:
        print(f"pyinspect watchdog: attaching to {pid} to detach failed: {exc}", file=sys.stderr)
        return False
    finally:
        process.close()


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not (argv[0].isdigit() and argv[1].isdigit()) or argv[2] not in ("launch", "attach"):
        print("usage: python -m pyinspect.session.watchdog ADAPTER_PID DEBUGGEE_PID launch|attach", file=sys.stderr)
        return 2
    if hasattr(os, "setsid") and os.getpid() != os.getsid(0):
        try:
            os.setsid()
        except OSError:
            pass  # already a session leader
    return watch(int(argv[0]), int(argv[1]), argv[2])


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stderr.flush()
    os._exit(status)  # not sys.exit: the thread blocked reading stdin would hold up the shutdown
