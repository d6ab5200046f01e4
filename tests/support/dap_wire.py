"""A small DAP peer for tests: raw Content-Length frames to and from a real adapter.

It exists so the adapter's own tests do not depend on pyinspect's client; every wait is
bounded, and the adapter process is always ended by close().
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from typing import Any

from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool
from support.targets import end_process


class WirePeer:
    def __init__(self, *extra_args: str, prefix: tuple[str, ...] = (), cwd: str | None = None) -> None:
        """``prefix`` runs the adapter under another command (``setpriv`` with fewer privileges);
        ``cwd`` is its working directory (the test's own when None)."""
        adapter = dotnet_tool("PyInspect.Debugger")
        self.proc = subprocess.Popen(
            [*prefix, str(dotnet_host()), str(adapter), *extra_args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.events: list[dict[str, Any]] = []
        self._seq = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = -1
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send_raw(self, body: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, command: str, arguments: dict[str, Any] | None = None, seq: Any = None) -> int:
        self._seq += 1
        message = {"seq": self._seq if seq is None else seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        self.send_raw(json.dumps(message).encode())
        return self._seq

    def next_message(self, timeout: float) -> dict[str, Any]:
        message = self.messages.get(timeout=timeout)
        if message.get("type") == "event":
            self.events.append(message)
        return message

    def request(self, command: str, arguments: dict[str, Any] | None = None,
                timeout: float = 15.0, seq: Any = None) -> dict[str, Any]:
        """Send a request; return its response (success or not), keeping events seen."""
        sent = self.send(command, arguments, seq)
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.01, deadline - time.monotonic()))
            if message.get("type") == "response" and message.get("request_seq") == sent:
                return message

    def wait_event(self, name: str, timeout: float = 15.0) -> dict[str, Any]:
        for event in self.events:
            if event["event"] == name:
                self.events.remove(event)
                return event
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.01, deadline - time.monotonic()))
            if message.get("type") == "event" and message["event"] == name:
                self.events.remove(message)
                return message

    def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            end_process(self.proc)
