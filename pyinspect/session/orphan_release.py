"""Letting go of a .NET process whose debugger died without detaching.

The runtime talks to its debugger over two FIFOs, ``$TMPDIR/clr-debug-pipe-PID-KEY-in``
and ``-out`` (PID and TMPDIR as the process sees them: in a container, through its root) (dotnet/runtime, debug/shared/dbgtransportsession.cpp). When the debugger
process dies, the runtime's transport goes to its resync state: a stopped process stays
stopped, and a new debugger is refused (RR_AlreadyAttached) because its session id is not
the dead one's. But a resync message carries no session id. So, as the dead debugger's
stand-in, ``release_orphaned_runtime`` answers the resync (acknowledging everything, so
nothing is re-sent), sends one DB_IPCE_CONTINUE (the process runs again; a no-op when
it already ran) and closes the session (MT_SessionClose: the runtime waits for a new
debugger). A normal attach and detach afterwards then removes what the dead debugger
left (breakpoints); the watchdog does that.

Verified on .NET 10: a DebuggeeLoop paused by a SIGKILLed adapter counts again, and a
new attach then detach works, running or paused. Wire layouts: the 48-byte
MessageHeader; DebuggerIPCEvent's type is written both at offset 0 and at offset 8, so
the event reads as a continue whether or not the layout starts with its `next` pointer.
"""

from __future__ import annotations

import glob
import os
import select
import struct
import time

from pyinspect.errors import PyInspectError
from pyinspect.targets.process_view import view_of

__all__ = ["release_orphaned_runtime"]

_HEADER = struct.Struct("<6I16s8s")  # type, data size, id, reply id, last seen id, reserved; union; zero
_SESSION_RESYNC, _SESSION_CLOSE, _EVENT = 3, 4, 5
_DB_IPCE_CONTINUE = 0x0201
_EVERYTHING_SEEN = 0xFFFFFFFF


def _pipe_names(pid: int) -> tuple[str, str] | None:
    """The runtime's (in, out) FIFOs: in its own temp folder, named by its pid inside its
    pid namespace (a process in a container: reached through its root), the newest if a
    pid was reused."""
    try:
        view = view_of(pid)
    except PyInspectError:
        return None
    folder = view.reach_temp()
    found = sorted(glob.glob(os.path.join(glob.escape(folder), f"clr-debug-pipe-{view.namespace_pid}-*-in")),
                   key=os.path.getmtime)
    return (found[-1], found[-1][:-3] + "-out") if found else None


def _open_pipes(names: tuple[str, str], timeout: float) -> tuple[int, int] | None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            to_runtime = os.open(names[0], os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError:  # ENXIO: the runtime is not listening (yet)
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
    try:
        from_runtime = os.open(names[1], os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        os.close(to_runtime)
        return None
    os.set_blocking(to_runtime, True)
    return to_runtime, from_runtime


def _read_header(fd: int, timeout: float) -> tuple[int, ...] | None:
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < _HEADER.size:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, _HEADER.size - len(data))
        if not chunk:  # no writer yet: the runtime opens its end after ours
            time.sleep(0.02)
        data += chunk
    return tuple(_HEADER.unpack(data)[:6])


def _header(kind: int, size: int = 0, message_id: int = 0, last_seen: int = 0, specific: bytes = b"") -> bytes:
    return _HEADER.pack(kind, size, message_id, 0, last_seen, 0, specific, b"")


def _continue_event(message_id: int) -> bytes:
    event = bytearray(64)
    struct.pack_into("<I", event, 0, _DB_IPCE_CONTINUE)
    struct.pack_into("<I", event, 8, _DB_IPCE_CONTINUE)
    specific = struct.pack("<II", 0, _DB_IPCE_CONTINUE)  # IPCET_OldStyle, the event type
    return _header(_EVENT, len(event), message_id, 0, specific) + bytes(event)


def release_orphaned_runtime(pid: int, within: float = 8.0, timeout: float = 1.5) -> bool:
    """True when the runtime was waiting for a dead debugger and now runs, free for a new
    one; False when it was not waiting (its debugger had detached: a runtime listening for
    a new session says nothing first) or could not be reached within `within` seconds.

    Call it a moment after the debugger's death: until the runtime notices, opening its
    FIFOs would join the dead connection. Reaching it is retried, since it may be between
    removing and re-creating them, or sleeping a second after a failed accept."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        outcome = _release_once(pid, timeout)
        if outcome != "unreachable":
            return outcome == "released"
        time.sleep(0.1)
    return False


def _release_once(pid: int, timeout: float) -> str:
    """"released", "silent" (not waiting for a dead debugger) or "unreachable"."""
    try:
        names = _pipe_names(pid)
        pipes = _open_pipes(names, timeout) if names else None
    except OSError:
        return "unreachable"
    if pipes is None:
        return "unreachable"
    to_runtime, from_runtime = pipes
    try:
        resync = _read_header(from_runtime, timeout)
        if resync is None or resync[0] != _SESSION_RESYNC:
            return "silent"
        last_seen_by_runtime = resync[4]
        os.write(to_runtime, _header(_SESSION_RESYNC, last_seen=_EVERYTHING_SEEN))
        os.write(to_runtime, _continue_event(last_seen_by_runtime + 1))
        time.sleep(0.2)  # let the runtime take the event before the session closes
        os.write(to_runtime, _header(_SESSION_CLOSE))
        time.sleep(0.1)
        return "released"
    except OSError:
        return "unreachable"
    finally:
        os.close(to_runtime)
        os.close(from_runtime)
