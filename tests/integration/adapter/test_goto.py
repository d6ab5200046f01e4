"""gotoTargets / goto ("set next statement") in EvalSample's loop: jumping past the loop
skips it, as the program's own output shows; jumps out of the current method, or to
targets never offered, are refused and nothing moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.adapter_session import launched, ok, output_of, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_source

TARGET = "EvalSample"
SOURCE = str(target_source(TARGET))


def targets(peer: WirePeer, marker: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ok(peer.request("gotoTargets", {"source": {"path": SOURCE}, "line": marker_line(TARGET, marker)}))["targets"]
    return found


def test_jumping_past_a_loop_skips_it(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "truth.json")], markers=["loop"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        [after] = targets(peer, "after")
        assert after["line"] == marker_line(TARGET, "after")
        ok(peer.request("goto", {"threadId": thread, "targetId": after["id"]}))
        stopped = peer.wait_event("stopped", timeout=10)["body"]
        assert (stopped["reason"], stopped["threadId"]) == ("goto", thread)
        assert top_frame(peer, thread)["line"] == marker_line(TARGET, "after")
        set_breakpoints(peer, TARGET, [])
        ok(peer.request("continue", {"threadId": thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        printed = output_of(peer, "stdout")
        assert printed.splitlines()[-1] == "0", "the loop that adds to total never ran"


def test_jumps_out_of_the_method_or_to_unknown_targets_are_refused(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "truth.json")], markers=["loop"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        line = top_frame(peer, thread)["line"]
        [elsewhere] = targets(peer, "eval")
        refused = peer.request("goto", {"threadId": thread, "targetId": elsewhere["id"]})
        assert refused["success"] is False and "can only move within the current method" in refused["message"]
        unknown = peer.request("goto", {"threadId": thread, "targetId": 999_999})
        assert unknown["success"] is False and "Unknown goto target 999999" in unknown["message"]
        assert top_frame(peer, thread)["line"] == line
        assert not [e for e in peer.events if e["event"] == "stopped"]
