"""Finding and starting a DAP adapter process: ours by default, netcoredbg when asked.

Ours runs as ``dotnet PyInspect.Debugger.dll`` (what ``pyinspect dap`` execs); netcoredbg
comes from PYINSPECT_NETCOREDBG or PATH and speaks DAP with ``--interpreter=vscode``.
PYINSPECT_ADAPTER_LOG=FILE makes our adapter append its diagnostics there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Literal

from pyinspect.dap.channel import DapChannel
from pyinspect.dap.client import DapClient
from pyinspect.dap.stream import DapStream
from pyinspect.errors import AdapterDiedError, InvalidParameterError, SetupMissingError
from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool
from pyinspect.targets.runtime_files import remove_runtime_files

__all__ = ["ADAPTER_KINDS", "AdapterKind", "AdapterProcess", "adapter_command", "start_adapter"]

AdapterKind = Literal["pyinspect", "netcoredbg"]
ADAPTER_KINDS: tuple[str, ...] = ("pyinspect", "netcoredbg")


def adapter_command(kind: str) -> list[str]:
    if kind == "pyinspect":
        command = [str(dotnet_host()), str(dotnet_tool("PyInspect.Debugger"))]
        log = os.environ.get("PYINSPECT_ADAPTER_LOG")
        return command + (["--log", log] if log else [])
    if kind == "netcoredbg":
        path = os.environ.get("PYINSPECT_NETCOREDBG") or shutil.which("netcoredbg")
        if not path or not os.path.exists(path):
            raise SetupMissingError("netcoredbg not found: set PYINSPECT_NETCOREDBG or put it on PATH")
        return [path, "--interpreter=vscode"]
    raise InvalidParameterError(f"adapter must be one of {', '.join(ADAPTER_KINDS)}, not {kind!r}",
                                adapter=kind)


@dataclass
class AdapterProcess:
    """One adapter process and the client talking to it."""

    kind: str
    proc: subprocess.Popen[bytes]
    client: DapClient
    closed: bool = field(default=False)

    @property
    def is_alive(self) -> bool:
        return self.proc.poll() is None and not self.client.channel.is_closed

    def close(self, timeout: float = 5.0) -> None:
        """End our side of the wire (the adapter exits on EOF); kill it if it lingers."""
        if self.closed:
            return
        self.closed = True
        if not self.client.channel.close(timeout=timeout) or self.proc.poll() is None:
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self._kill()
            self.client.channel.join_reader(timeout=2.0)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self._kill()
        self.proc.wait(timeout=5)
        self.closed = True
        self.client.channel.join_reader(timeout=2.0)

    def _kill(self) -> None:
        """SIGKILL, then the files the adapter's runtime could not remove (ours is a .NET program)."""
        self.proc.kill()
        self.proc.wait(timeout=5)
        remove_runtime_files(self.proc.pid, wait=0)


def start_adapter(kind: str = "pyinspect") -> AdapterProcess:
    command = adapter_command(kind)
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, start_new_session=False)
    except OSError as exc:
        raise AdapterDiedError(f"could not start the {kind} adapter: {exc}", command=command[0]) from exc
    channel = DapChannel(DapStream.from_process(proc, name=f"{kind} adapter"))
    return AdapterProcess(kind, proc, DapClient(channel))
