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


def test_collections_show_their_count_and_items_in_enumeration_order() -> None:
    with launched(TARGET, args=["props"], markers=["props"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        local = frame_variables(peer, frame["id"])

        def items(name: str) -> list[tuple[str, str]]:
            views = ok(peer.request("variables", {"variablesReference": local[name]["variablesReference"]}))["variables"]
            assert views[-1]["name"] == "Raw View"
            return [(v["name"], v["value"]) for v in views[:-1]]

        assert local["numbers"]["value"] == "Count = 3" and local["numbers"]["indexedVariables"] == 3
        assert items("numbers") == [("[0]", "4"), ("[1]", "5"), ("[2]", "6")]
        assert local["ages"]["value"] == "Count = 3"
        assert items("ages") == [('["ann"]', "31"), ('["dee"]', "50"), ('["cy"]', "7")]
        assert items("queue") == [("[0]", '"first"'), ("[1]", '"second"')]
        assert items("stack") == [("[0]", "3"), ("[1]", "2"), ("[2]", "1")]
        assert items("tags") == [("[0]", '"x"'), ("[1]", '"y"')]
        page = ok(peer.request("variables", {"variablesReference": local["numbers"]["variablesReference"],
                                             "start": 1, "count": 1}))["variables"]
        assert [(v["name"], v["value"]) for v in page] == [("[1]", "5")]
        raw = ok(peer.request("variables", {"variablesReference": local["numbers"]["variablesReference"]}))["variables"][-1]
        fields = children(peer, raw["variablesReference"])
        assert fields["_size"]["value"] == "3" and fields["Capacity"]["pyinspectKind"] == "property"
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
