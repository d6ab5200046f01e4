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

    def echo(self, line: str, timeout: float = 30.0) -> bool:
        """Send a line to the program; True once it echoed it (it runs)."""
        echo = self.container.inside(TRUTH + ".echo")
        stdin = self.container.launcher.stdin
        assert stdin is not None
        stdin.write(line.encode() + b"\n")
        stdin.flush()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if echo.exists() and echo.read_text() == line:
                return True
            time.sleep(0.05)
        return False
