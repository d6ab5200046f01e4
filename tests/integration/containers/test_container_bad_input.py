"""What goes wrong with a containerised process gets a clear coded error and leaves it
running: its runtime folder hidden after it started, pyinspect without the privilege to
enter its namespaces, a process that exits while the adapter attaches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from container_targets import TRUTH, ContainerTarget
from support.adapter_session import ok
from support.containers import container_apps, running_container, wait_for_inside_file
from support.dap_wire import WirePeer

from pyinspect.errors import PyInspectError
from pyinspect.heap import HeapReader, create_dump
from pyinspect.targets.processes import list_dotnet_processes

NO_NAMESPACE_ENTRY = ("setpriv", "--bounding-set", "-sys_admin,-sys_chroot", "--")


@pytest.fixture
def net8_target(tmp_path: Path) -> Iterator[ContainerTarget]:
    app = container_apps()[0]
    with running_container(app, tmp_path, TRUTH) as container:
        yield ContainerTarget(app, container, json.loads(wait_for_inside_file(container, TRUTH)))


def attach_answer(pid: int, prefix: tuple[str, ...] = ()) -> dict[str, object]:
    peer = WirePeer("--interpreter=vscode", prefix=prefix)
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        answer = peer.request("attach", {"processId": pid}, timeout=60)
        ok(peer.request("disconnect", {}))
        return answer
    finally:
        peer.close()


def test_a_hidden_runtime_folder_is_named_and_refused_with_codes(net8_target: ContainerTarget) -> None:
    hidden = net8_target.container.run_inside("mount", "-t", "tmpfs", "hide-runtime", "/app")
    assert hidden.returncode == 0, hidden.stderr
    row = next(p for p in list_dotnet_processes() if p.pid == net8_target.pid)
    assert (row.can_debug, row.can_read_heap) == (False, False)
    assert row.reason is not None and "/app" in row.reason and "libcoreclr.so" in row.reason
    with pytest.raises(PyInspectError) as heap_error:
        HeapReader.attach(net8_target.pid)
    assert heap_error.value.code == "SETUP_MISSING" and "/app" in str(heap_error.value)
    with pytest.raises(PyInspectError) as dump_error:
        create_dump(net8_target.pid, Path("/tmp/never-written.dmp"))
    assert dump_error.value.code == "DUMP_ERROR" and "createdump" in str(dump_error.value)
    answer = attach_answer(net8_target.pid)
    assert answer["success"] is False and "libmscordbi.so" in str(answer["message"])
    assert net8_target.echo("still running"), "a refused attach must leave the program running"


def test_without_cap_sys_admin_ps_says_so_and_attach_names_it(net8_target: ContainerTarget) -> None:
    cli = Path(sys.executable).parent / "pyinspect"
    result = subprocess.run([*NO_NAMESPACE_ENTRY, str(cli), "ps", "--json"], capture_output=True, text=True,
                            timeout=120, check=True)
    row = next(p for p in json.loads(result.stdout) if p["pid"] == net8_target.pid)
    assert (row["canDebug"], row["canReadHeap"]) == (False, True)
    assert "CAP_SYS_ADMIN" in row["reason"]
    answer = attach_answer(net8_target.pid, prefix=NO_NAMESPACE_ENTRY)
    assert answer["success"] is False and "CAP_SYS_ADMIN" in str(answer["message"])
    assert net8_target.echo("still running"), "a refused attach must leave the program running"


def test_a_process_exiting_while_the_adapter_attaches_gets_an_answer_and_the_adapter_lives(
        net8_target: ContainerTarget) -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        sent = peer.send("attach", {"processId": net8_target.pid})
        os.kill(net8_target.pid, signal.SIGKILL)
        while True:
            message = peer.next_message(timeout=60)
            if message.get("type") == "response" and message.get("request_seq") == sent:
                break
        if message["success"]:  # attached before it died: the adapter says it ended
            peer.wait_event("terminated", timeout=60)
        else:
            assert message.get("message"), "a failed attach must say why"
        assert peer.request("threads", timeout=30)["type"] == "response", "the adapter must still answer"
        ok(peer.request("disconnect", {}))
    finally:
        peer.close()
    assert peer.proc.returncode == 0
