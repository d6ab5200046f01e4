"""Our adapter on every supported runtime, with the DBI of the target's own runtime:
launch of each program kind to a line breakpoint (stack, variables, an evaluate that calls
methods, equal to the debuggee's truth), and attach to a running process, which keeps
running after detach."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from runtime_targets import RuntimeTarget, published
from support.adapter_session import children, ok, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, read_truth

from pyinspect.heap import HeapReader

# (runtime, program to launch): self-contained apphosts, a self-contained app's .dll (run
# through its apphost), a framework-dependent .dll under `dotnet`, a framework-dependent apphost.
LAUNCHES = [("net8.0", "MemoryTruth"), ("net9.0", "MemoryTruth"), ("net8.0", "MemoryTruth.dll"),
            ("net10.0", "MemoryTruth.dll"), ("net10.0", "MemoryTruth")]


@contextmanager
def adapter() -> Iterator[WirePeer]:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        yield peer
    finally:
        peer.close()


def wait_for_module(peer: WirePeer, name: str, timeout: float = 30.0) -> None:
    """Attach learns the loaded modules from the runtime's attach events: wait for one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = peer.wait_event("module", timeout=max(0.01, deadline - time.monotonic()))
        if event["body"]["module"]["name"] == name:
            return
    raise AssertionError(f"no module event for {name}")


@pytest.mark.parametrize(("framework", "program"), LAUNCHES, ids=[f"{f}-{p}" for f, p in LAUNCHES])
def test_launch_stops_at_a_line_breakpoint_with_stack_variables_and_evaluate(
        framework: str, program: str, tmp_path: Path) -> None:
    truth_file = tmp_path / "truth.json"
    with adapter() as peer:
        ok(peer.request("launch", {"program": str(published(framework) / program), "args": [str(truth_file)]},
                        timeout=60))
        assert [b["verified"] for b in set_breakpoints(peer, "MemoryTruth", ["ready"])] == [True]
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=60)["body"]
        assert stopped["reason"] == "breakpoint"
        truth = read_truth(truth_file)

        frame = top_frame(peer, stopped["threadId"])
        assert frame["line"] == marker_line("MemoryTruth", "ready")
        assert frame["source"]["path"].endswith("Program.cs")
        scopes = ok(peer.request("scopes", {"frameId": frame["id"]}))["scopes"]
        local = children(peer, scopes[0]["variablesReference"])
        assert local["bag"]["type"] == "MemoryTruth.Bag"
        assert int(local["customer"]["memoryReference"], 16) == int(truth["customer"]["address"], 16)

        def evaluate(expression: str) -> str:
            body = ok(peer.request("evaluate", {"expression": expression, "frameId": frame["id"]}))
            return str(body["result"])

        assert evaluate("bag.Ints.Contains(42)") == "true"
        assert evaluate("MemoryTruth.Truth.Hex(customer)") == f'"{truth["customer"]["address"]}"'
        assert evaluate("bag.Dict.Count + bag.Ints.IndexOf(12)") == str(truth["collections"]["Dict"]["count"] + 2)


def test_attach_pause_stack_variables_and_detach_leaves_it_running(
        runtime_target: RuntimeTarget, live_reader: HeapReader) -> None:
    with adapter() as peer:
        ok(peer.request("attach", {"processId": runtime_target.pid}, timeout=30))
        ok(peer.request("configurationDone"))
        wait_for_module(peer, "MemoryTruth.dll")
        ok(peer.request("pause", {"threadId": 0}))
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        threads = ok(peer.request("threads"))["threads"]
        main = next(t["id"] for t in threads if t["name"] == "Main Thread")
        frames = ok(peer.request("stackTrace", {"threadId": main}))["stackFrames"]
        program = next(f for f in frames if f["name"] == "Program.<Main>$()")
        scopes = ok(peer.request("scopes", {"frameId": program["id"]}))["scopes"]
        local = children(peer, scopes[0]["variablesReference"])
        assert int(local["customer"]["memoryReference"], 16) == int(runtime_target.truth["customer"]["address"], 16)
        assert stopped["allThreadsStopped"] is True
        ok(peer.request("disconnect", {}))  # after attach: detach, not terminate
        peer.proc.wait(timeout=15)
    live_reader.flush()
    assert live_reader.object(runtime_target.truth["customer"]["address"]).type_name == "MemoryTruth.Customer"
    assert Path(f"/proc/{runtime_target.pid}").exists()
    status = Path(f"/proc/{runtime_target.pid}/stat").read_text().split(") ")[1][0]
    assert status in "SR", f"the debuggee must be running after detach, its state is {status}"
