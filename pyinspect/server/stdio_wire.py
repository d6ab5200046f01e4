"""The stdio wire of `pyinspect serve`, claimed as the process begins: the JSON-RPC
stream keeps stdin and stdout to itself on private descriptors, and fd 0 then reads the
null device and fd 1 writes to stderr, so a stray print (ours, a library's, the debug
adapter's) never reaches the protocol stream and a child never reads from it.

Claimed before anything heavy is imported (pyinspect.cli.main), because an import can
print. Standard library only; every byte on the wire is written by the MCP SDK.
"""

from __future__ import annotations

import fcntl
import io
import os
import sys
import threading
from typing import IO

__all__ = ["Wire", "claim_stdio"]

Wire = tuple[IO[bytes], IO[bytes]]
_claiming = threading.Lock()
_claimed: Wire | None = None


def _claim(fd: int, mode: str, diversion: int) -> IO[bytes]:
    """The stream behind ``fd`` on a private descriptor; ``fd`` itself then points at
    ``diversion``."""
    try:
        private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:  # started with the descriptor closed: nothing to read, nowhere to write
        return io.BytesIO()
    os.dup2(diversion, fd)
    return os.fdopen(private, mode)


def claim_stdio() -> Wire:
    """(wire in, wire out): the process's own stdin and stdout, claimed once (a second
    call answers the same pair)."""
    global _claimed
    with _claiming:
        if _claimed is None:
            if sys.stdout is not None:
                sys.stdout.flush()
            with open(os.devnull, "rb") as null:
                wire_in = _claim(0, "rb", null.fileno())
            wire_out = _claim(1, "wb", 2)
            _claimed = (wire_in, wire_out)
        return _claimed
