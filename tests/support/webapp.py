"""The ASP.NET Core test app (tests/targets/WebApp): a free loopback port, a bounded wait
until it serves, and HTTP calls that never hang a test."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from support.targets import running_target

WEBAPP = "WebApp"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def url_args(port: int) -> list[str]:
    """The program arguments that make the app listen on 127.0.0.1:port only."""
    return ["--urls", f"http://127.0.0.1:{port}"]


@dataclass(frozen=True)
class HttpAnswer:
    status: int
    body: str


def http_get(port: int, path: str, timeout: float = 10.0) -> HttpAnswer:
    """GET http://127.0.0.1:port/path; HTTP errors are answers, not exceptions."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as reply:
            return HttpAnswer(reply.status, reply.read().decode())
    except urllib.error.HTTPError as error:
        return HttpAnswer(error.code, error.read().decode(errors="replace"))


def wait_until_serving(port: int, timeout: float = 60.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Bounded wait until /health answers (the app may be paused by a debugger meanwhile)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"WebApp exited with {proc.returncode} before serving")
        try:
            if http_get(port, "/health", timeout=2).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"WebApp did not serve on port {port} within {timeout}s")


@contextmanager
def serving_webapp() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The web app started with `dotnet WebApp.dll`, already serving; killed afterwards."""
    port = free_port()
    with running_target(WEBAPP, *url_args(port)) as proc:
        wait_until_serving(port, proc=proc)
        yield proc, port
