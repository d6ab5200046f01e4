"""A server process the tests start: wait until it listens, stop it (terminate, then kill)."""

from __future__ import annotations

import socket
import subprocess
import time


def wait_listening(proc: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, f"{proc.args} exited with {proc.returncode}"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        assert time.monotonic() < deadline, f"{proc.args} did not listen on {port} within 60 s"
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)
