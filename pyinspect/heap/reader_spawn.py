"""Starting a dump reader process (the heap helper run as ``dotnet PyInspect.Heap.dll FD DUMP``):
the one place that spawns it, importing only what a spawn needs, so that a one-shot command
starts its reader before the rest of the reading side loads (pyinspect.heap.dump_child wraps
what this returns)."""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
from typing import IO

__all__ = ["Started", "spawn_reader"]

Started = tuple[subprocess.Popen[bytes], socket.socket, IO[bytes]]
"""A reader process, the parent's end of its socket, and the file its output goes to."""

_NO_RUNTIME_FILES = {"DOTNET_EnableDiagnostics": "0"}
"""Nothing debugs or traces a dump's reader: its runtime opens no debugger pipes or diagnostics
socket (files in the temp folder that a process ending with _exit or a kill leaves behind)."""


def spawn_reader(path: str) -> Started:
    """A child process reading calls from one end of a socket pair (returned), reading the dump
    at path meanwhile; its output goes to a temporary file whose last lines say why it ended, if it does."""
    from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool

    command = [str(dotnet_host()), str(dotnet_tool("PyInspect.Heap"))]
    parent, child = socket.socketpair()
    stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open while the child lives
    with child:
        process = subprocess.Popen([*command, str(child.fileno()), path],
                                   pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL, stdout=stderr,
                                   stderr=stderr, env={**os.environ, "PYINSPECT_HEAP_BREADCRUMBS": "1", **_NO_RUNTIME_FILES})
    return process, parent, stderr
