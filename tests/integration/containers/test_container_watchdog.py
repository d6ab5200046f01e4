"""The watchdog frees a containerised process exactly as a host one: the adapter SIGKILLed
while the process is paused leaves its runtime waiting for a dead debugger (in the
container's own /tmp, named by its pid inside); the watchdog answers it through the
process's root, the program runs again, and a new debugger attaches by host pid."""

from __future__ import annotations

import json
import os

import psutil
import pytest
from container_targets import ContainerTarget
from mcp import Client

from pyinspect.server import create_server


def command_of(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:  # gone, or a zombie
        return ""


def adapters_of(pid: int) -> list[psutil.Process]:
    return [p for p in psutil.Process(pid).children(recursive=True) if "PyInspect.Debugger" in command_of(p)]


def watchdogs_finish(seconds: float = 60.0) -> bool:
    watchdogs = [p for p in psutil.Process().children(recursive=True)
                 if "pyinspect.session.watchdog" in command_of(p)]
    _, alive = psutil.wait_procs(watchdogs, timeout=seconds)
    return not alive


async def call_ok(client: Client, tool: str, **arguments: object) -> dict[str, object]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, json.loads(result.content[0].text)  # type: ignore[union-attr]
    answer = result.structured_content
    assert answer is not None and answer["success"] is True
    return answer


@pytest.mark.asyncio
async def test_the_watchdog_frees_a_paused_containerised_process_after_its_adapter_is_killed(
        container_target: ContainerTarget) -> None:
    async with Client(create_server()) as client:
        await call_ok(client, "debug_attach", pid=container_target.pid)
        assert (await call_ok(client, "debug_pause"))["state"] == "paused"
        container_target.send_line("while paused")
        assert not container_target.echoed("while paused", timeout=1.0), "a paused program echoed"
        (adapter,) = adapters_of(os.getpid())
        adapter.kill()
        assert container_target.echoed("while paused", timeout=60.0), "the program stayed stopped after its adapter died"
        assert watchdogs_finish(), "the watchdog did not finish"
        await call_ok(client, "debug_attach", pid=container_target.pid)  # the runtime takes a new debugger
        assert (await call_ok(client, "debug_pause"))["state"] == "paused"
        await call_ok(client, "debug_disconnect")
    assert container_target.echo("after the watchdog"), "the program must run after the new debugger detached"
