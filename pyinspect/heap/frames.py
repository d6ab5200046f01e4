"""Messages on a dump reader's socket, framed as the reader's Host/Frames.cs reads and writes
them: a 4-byte big-endian length, or -1 and an 8-byte length for 2 GiB or more, then the bytes
(multiprocessing.connection's framing, without the 4 ms that multiprocessing and pickle take
to load at a one-shot command's start)."""

from __future__ import annotations

import _socket
import select
import struct
from typing import Protocol

__all__ = ["Frames", "readable"]

_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")


class _HasFileno(Protocol):
    def fileno(self) -> int: ...


def readable(source: int | _HasFileno, timeout: float) -> bool:
    """Whether source (a descriptor, or what has one) can be read within timeout seconds: a
    message or a close on a socket, a process's exit on its pidfd."""
    waiting = select.poll()  # not select(): a process with 1,024 open files has larger fds
    waiting.register(source, select.POLLIN)
    return bool(waiting.poll(timeout * 1000))


class Frames:
    """One end of a socket pair, read and written a message at a time (blocking)."""

    def __init__(self, sock: _socket.socket) -> None:
        self._sock = sock

    def send_bytes(self, message: bytes) -> None:
        """Write one message whole (OSError when the other end is gone)."""
        size = len(message)
        header = _SHORT.pack(size) if size <= 0x7FFFFFFF else _SHORT.pack(-1) + _LONG.pack(size)
        self._sock.sendall(header + message)

    def poll(self, timeout: float) -> bool:
        """Whether a message (or the other end's close) is waiting, within timeout seconds."""
        return readable(self._sock, timeout)

    def recv_bytes(self) -> bytes:
        """The next message (EOFError when the other end closed first)."""
        (size,) = _SHORT.unpack(self._exactly(_SHORT.size))
        if size == -1:
            (size,) = _LONG.unpack(self._exactly(_LONG.size))
        return self._exactly(size)

    def close(self) -> None:
        self._sock.close()

    def _exactly(self, size: int) -> bytes:
        received = bytearray(size)
        view = memoryview(received)
        done = 0
        while done < size:
            read = self._sock.recv_into(view[done:])
            if read == 0:
                raise EOFError("the dump reader closed its socket")
            done += read
        return bytes(received)
