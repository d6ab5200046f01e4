"""Properties in `variables`: getters run by func-eval on the stopped thread, bounded in
time; a throwing getter shows its exception, a getter that never returns is aborted and the
debuggee goes on normally afterwards. InspectSample `props` mode."""

from __future__ import annotations

from support.adapter_session import children, frame_variables, launched, ok, top_frame

TARGET = "InspectSample"


def test_object_children_hold_fields_then_getter_values() -> None:
    with launched(TARGET, args=["props"], markers=["props"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        account = frame_variables(peer, frame["id"])["account"]
        members = children(peer, account["variablesReference"])
        assert members["Owner"]["value"] == '"Ada"'
        assert members["_balance"]["value"] == "120"
        assert members["Balance"]["value"] == "120"
        assert members["Balance"]["pyinspectKind"] == "property"
        assert members["Description"]["value"] == '"Ada has 120"'
        assert members["Broken"]["value"] == "threw System.InvalidOperationException: broken getter"
        assert members["Broken"]["type"] == "System.InvalidOperationException"
        assert "did not finish within 1 s" in members["Forever"]["value"]
        assert account["namedVariables"] == len(members)

        again = children(peer, account["variablesReference"])
        assert again["Description"]["value"] == '"Ada has 120"'
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        exited = peer.wait_event("exited", timeout=30)["body"]
        assert exited["exitCode"] == 0
