"""Starting a dump reader process (the heap helper run as ``dotnet PyInspect.Heap.dll FD DUMP``):
the one place that spawns it, importing only what a spawn needs, so that a one-shot command
starts its reader before the rest of the reading side loads (pyinspect.heap.dump_child wraps
what this returns).

It imports nothing the interpreter has not loaded already but ``_socket``: the reader is
spawned with os.posix_spawn, its output goes to a memory file (memfd), and the process is
waited for here; subprocess, socket and tempfile (with the enum, re, collections, threading
and compression modules they load) took 10 ms before the spawn, and the reader is a one-shot
command's critical path from its spawn to the end (docs/triage.md, Speed).
"""

from __future__ import annotations

import _socket
import io
import os

__all__ = ["ReaderProcess", "Started", "spawn_reader"]

_NO_RUNTIME_FILES = {"DOTNET_EnableDiagnostics": "0"}
"""Nothing debugs or traces a dump's reader: its runtime opens no debugger pipes or diagnostics
socket (files in the temp folder that a process ending with _exit or a kill leaves behind)."""

_DEFAULT_SIGNALS = (13, 25)
"""SIGPIPE and SIGXFSZ (their numbers on Linux), which Python ignores: the reader gets their
default actions back, as subprocess gives a child (the signal module loads enum)."""

_SIGKILL = 9


class ReaderProcess:
    """A reader process spawned here, as its parent uses it: subprocess.Popen's poll, wait
    and kill (an exit status of -N: ended by signal N)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """Its exit status once it has ended (reaped here), else None."""
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): its status is lost
                self.returncode = 0
            else:
                if pid == self.pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Its exit status, waiting at most timeout seconds (TimeoutError), woken by the exit
        itself (a pidfd): a one-shot command prints its answer once the reader has ended."""
        if self.poll() is None and timeout is not None:
            self._await_exit(timeout)
        while self.returncode is None:
            try:
                _, status = os.waitpid(self.pid, 0)
            except ChildProcessError:
                self.returncode = 0
            else:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        """SIGKILL, unless it has ended (its pid may be another process's by then)."""
        if self.poll() is None:
            os.kill(self.pid, _SIGKILL)

    def _await_exit(self, timeout: float) -> None:
        from pyinspect.heap.frames import readable

        try:
            exited = os.pidfd_open(self.pid)
        except OSError:  # a kernel without pidfds
            self._poll_exit(timeout)
            return
        try:
            if not readable(exited, timeout):
                raise TimeoutError(f"the dump reader (pid {self.pid}) did not end within {timeout:g} s")
        finally:
            os.close(exited)

    def _poll_exit(self, timeout: float) -> None:
        import time

        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the dump reader (pid {self.pid}) did not end within {timeout:g} s")
            time.sleep(0.005)


Started = tuple[ReaderProcess, _socket.socket, io.BufferedRandom]
"""A reader process, the parent's end of its socket, and the file its output goes to."""


def spawn_reader(path: str) -> Started:
    """A child process reading calls from one end of a socket pair (returned), reading the dump
    at path meanwhile; its output goes to a memory file whose last lines say why it ended, if it does."""
    from pyinspect.targets.dotnet_paths import dotnet_host_file, dotnet_tool_file

    host = dotnet_host_file()
    command = [host, dotnet_tool_file("PyInspect.Heap")]
    parent, child = _socket.socketpair()
    output = os.memfd_create("pyinspect-dump-reader-output", os.MFD_CLOEXEC)
    nothing = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    try:
        given = child.fileno()
        actions = [(os.POSIX_SPAWN_DUP2, nothing, 0), (os.POSIX_SPAWN_DUP2, output, 1),
                   (os.POSIX_SPAWN_DUP2, output, 2), (os.POSIX_SPAWN_DUP2, given, given),
                   *((os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited_fds() if fd != given)]
        pid = os.posix_spawn(host, [*command, str(given), path],
                             {**os.environ, "PYINSPECT_HEAP_BREADCRUMBS": "1", **_NO_RUNTIME_FILES},
                             file_actions=actions, setsigdef=_DEFAULT_SIGNALS)
    except BaseException:
        parent.close()
        os.close(output)
        raise
    finally:
        child.close()
        os.close(nothing)
    return ReaderProcess(pid), parent, open(output, "w+b")  # kept open while the child lives


def _inherited_fds() -> list[int]:
    """This process's descriptors above stderr that a child inherits (those it was given
    without close-on-exec): closed in the reader, as subprocess's close_fds closes them."""
    fds = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if int(name) > 2 and os.get_inheritable(int(name)):
                fds.append(int(name))
        except OSError:  # the listing's own descriptor, closed by now
            pass
    return fds
