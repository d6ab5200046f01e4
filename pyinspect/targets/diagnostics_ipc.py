"""The runtime's diagnostics IPC: asking a .NET process to write its own dump.

Every .NET (5+) runtime listens on a Unix socket ``dotnet-diagnostic-<pid>-<key>-socket``
in its temp folder, named by its pid inside its own pid namespace and its start time (the
disambiguation key: /proc/PID/stat's field 22, the same number seen from any namespace).
The "write dump" command (command set 0x01, command 0x01; dotnet/diagnostics'
documentation/design-docs/ipc-protocol.md) makes the runtime run its own createdump,
inside its own namespaces, writing a path in its own view. This is how a process in a
container is dumped from outside with nothing installed inside: pyinspect reaches the
socket and the written file through the process's root (pyinspect/targets/process_view.py).
"""

from __future__ import annotations

import os
import socket
import struct
from pathlib import Path

from pyinspect.errors import DumpError, ProcessNotFoundError
from pyinspect.targets.process_view import ProcessView

__all__ = ["DUMP_FULL", "diagnostics_socket", "find_diagnostics_socket", "request_dump"]

_MAGIC = b"DOTNET_IPC_V1\0"
_HEADER = struct.Struct("<14sHBBH")
_DUMP_COMMAND_SET, _GENERATE_CORE_DUMP = 0x01, 0x01
_SERVER, _OK, _ERROR = 0xFF, 0x00, 0xFF
DUMP_FULL = 4


def find_diagnostics_socket(view: ProcessView) -> str | None:
    """The path pyinspect connects to for the process's diagnostics socket, None when it
    has none (not .NET, diagnostics off, or a temp folder other than the one it started with)."""
    path = view.reach_temp(_socket_name(view))
    return path if Path(path).exists() else None


def diagnostics_socket(view: ProcessView) -> str:
    """The path pyinspect connects to for the process's diagnostics socket; DumpError without one."""
    path = find_diagnostics_socket(view)
    if path is None:
        name = _socket_name(view)
        raise DumpError(f"process {view.pid} has no diagnostics socket {view.temp_folder}/{name} "
                        f"(reached at {view.reach_temp(name)}): its runtime's diagnostics are off "
                        "(DOTNET_EnableDiagnostics=0) or its temp folder is not the one it started with",
                        pid=view.pid)
    return path


def _socket_name(view: ProcessView) -> str:
    return f"dotnet-diagnostic-{view.namespace_pid}-{_start_time(view.pid)}-socket"


def request_dump(view: ProcessView, inside_path: str, dump_type: int = DUMP_FULL, timeout: float = 300.0) -> None:
    """Have the process's runtime write a dump of itself to ``inside_path`` (its own view).
    Raises DumpError with the runtime's HRESULT when it refuses or createdump fails."""
    name = inside_path.encode("utf-16-le") + b"\0\0"
    payload = struct.pack("<I", len(name) // 2) + name + struct.pack("<II", dump_type, 0)
    header = _HEADER.pack(_MAGIC, _HEADER.size + len(payload), _DUMP_COMMAND_SET, _GENERATE_CORE_DUMP, 0)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(diagnostics_socket(view))
            sock.sendall(header + payload)
            answer = _receive(sock, _HEADER.size + 4)
        except (ConnectionRefusedError, FileNotFoundError) as exc:
            raise ProcessNotFoundError(f"process {view.pid} is not listening on its diagnostics socket: {exc}",
                                       pid=view.pid) from exc
        except OSError as exc:
            raise DumpError(f"the diagnostics IPC dump request to process {view.pid} failed: {exc}",
                            pid=view.pid) from exc
    _magic, _size, command_set, command, _reserved = _HEADER.unpack(answer[:_HEADER.size])
    (hresult,) = struct.unpack("<I", answer[_HEADER.size:])
    if command_set != _SERVER or command != _OK or hresult != 0:
        raise DumpError(f"the runtime of process {view.pid} did not write the dump {inside_path}: HRESULT "
                        f"0x{hresult:08X} (createdump failed inside the process's namespaces: is {_folder(inside_path)} "
                        "writable there and is there room for a full dump?)", pid=view.pid)


def _receive(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the runtime closed the diagnostics connection without an answer")
        data += chunk
    return data


def _start_time(pid: int) -> int:
    """/proc/PID/stat's start time (clock ticks since boot): the runtime's disambiguation key."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError as exc:
        raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid) from exc
    return int(stat.rsplit(")", 1)[1].split()[19])


def _folder(path: str) -> str:
    return os.path.dirname(path) or "/"
