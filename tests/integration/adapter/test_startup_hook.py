"""The startup hook the adapter injects on launch: holds the debuggee before Main until a
debugger attaches (bounded), and does nothing unless asked."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from support.targets import target_dll

from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool

TARGET = "SymbolsSample"


def run_with_hook(extra_env: dict[str, str]) -> subprocess.Popen[bytes]:
    hook = dotnet_tool("PyInspect.StartupHook")
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("PYINSPECT_WAIT")}
    env = {**inherited, "DOTNET_STARTUP_HOOKS": str(hook), **extra_env}
    return subprocess.Popen([str(dotnet_host()), str(target_dll(TARGET))], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def maps_mention(pid: int, name: str) -> bool:
    return name in Path(f"/proc/{pid}/maps").read_text()


def test_the_hook_holds_the_debuggee_while_no_debugger_is_attached() -> None:
    proc = run_with_hook({"PYINSPECT_WAIT_FOR_DEBUGGER": "1", "PYINSPECT_WAIT_FOR_DEBUGGER_MS": "60000"})
    try:
        deadline = time.monotonic() + 20
        while not maps_mention(proc.pid, "PyInspect.StartupHook.dll"):
            assert proc.poll() is None, "debuggee exited instead of waiting"
            assert time.monotonic() < deadline, "hook dll never mapped"
            time.sleep(0.02)
        time.sleep(1.0)
        assert proc.poll() is None, "debuggee ran past the hook without a debugger"
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_the_hook_gives_up_after_its_time_limit() -> None:
    proc = run_with_hook({"PYINSPECT_WAIT_FOR_DEBUGGER": "1", "PYINSPECT_WAIT_FOR_DEBUGGER_MS": "300"})
    try:
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()


def test_the_hook_does_nothing_unless_asked() -> None:
    proc = run_with_hook({})
    try:
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
