"""The containerised debuggee the container tests share: host pid, its container, its truth."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from support.containers import Container, ContainerApp

TRUTH = "/tmp/truth.json"


@dataclass(frozen=True)
class ContainerTarget:
    app: ContainerApp
    container: Container
    truth: dict[str, Any]

    @property
    def pid(self) -> int:
        return self.container.pid

    def send_line(self, line: str) -> None:
        """A line to the program's stdin: it echoes it to TRUTH.echo (a line that runs)."""
        stdin = self.container.launcher.stdin
        assert stdin is not None
        stdin.write(line.encode() + b"\n")
        stdin.flush()

    def echo(self, line: str, timeout: float = 30.0) -> bool:
        """Send a line; True once the program echoed it (it runs)."""
        self.send_line(line)
        return self.echoed(line, timeout)

    def echoed(self, line: str, timeout: float = 30.0) -> bool:
        echo = self.container.inside(TRUTH + ".echo")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if echo.exists() and echo.read_text() == line:
                return True
            time.sleep(0.05)
        return False
