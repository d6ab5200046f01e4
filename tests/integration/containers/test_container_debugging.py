"""Our adapter attached by host pid to a .NET process in its own pid and mount namespaces
(its runtime, debugger pipes and /proc only inside): a line breakpoint binds by the host's
source path (the PDB names the path the app was built at), the stop shows its stack,
locals and an evaluation that calls methods, a step over runs the line in the program, and
after detach the program runs on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from container_targets import ContainerTarget
from support.adapter_session import ok, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line


@contextmanager
def adapter(prefix: tuple[str, ...] = ()) -> Iterator[WirePeer]:
    peer = WirePeer("--interpreter=vscode", prefix=prefix)
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        yield peer
    finally:
        peer.close()


def test_attach_by_host_pid_breaks_at_a_line_shows_stack_and_evaluates_then_detaches_leaving_it_running(
        container_target: ContainerTarget) -> None:
    truth = container_target.truth
    with adapter() as peer:
        ok(peer.request("attach", {"processId": container_target.pid}, timeout=60))
        assert [b["verified"] for b in set_breakpoints(peer, "MemoryTruth", ["echo"])] == [True]
        ok(peer.request("configurationDone"))
        container_target.send_line("while attached")
        stopped = peer.wait_event("stopped", timeout=60)["body"]
        assert stopped["reason"] == "breakpoint"
        frame = top_frame(peer, stopped["threadId"])
        assert frame["line"] == marker_line("MemoryTruth", "echo")
        assert frame["source"]["path"].endswith("Program.cs")
        threads = ok(peer.request("threads"))["threads"]
        assert any(t["name"] == "Main Thread" and t["id"] == stopped["threadId"] for t in threads)

        def evaluate(expression: str) -> str:
            body = ok(peer.request("evaluate", {"expression": expression, "frameId": frame["id"]}, timeout=60))
            return str(body["result"])

        assert evaluate("line") == '"while attached"'
        assert evaluate("MemoryTruth.Truth.Hex(customer)") == f'"{truth["customer"]["address"]}"'
        assert evaluate("System.Environment.ProcessId") == str(truth["pid"])
        assert evaluate("bag.Dict.Count + bag.Ints.IndexOf(12)") == str(truth["collections"]["Dict"]["count"] + 2)
        ok(peer.request("next", {"threadId": stopped["threadId"]}))
        stepped = peer.wait_event("stopped", timeout=60)["body"]
        assert stepped["reason"] == "step"
        assert top_frame(peer, stepped["threadId"])["line"] == marker_line("MemoryTruth", "echo") - 1  # the loop
        assert container_target.echoed("while attached", timeout=5.0), "the line stepped over ran in the program"
        ok(peer.request("disconnect", {}))  # after attach: detach, not terminate
        peer.proc.wait(timeout=30)
    assert container_target.echo("after detach"), "the program must run after detach"
