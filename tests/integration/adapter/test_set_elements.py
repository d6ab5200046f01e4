"""setVariable on the children a collection shows: an array's elements (AdapterSample), a
List's, Queue's and Stack's items and a Dictionary's values (InspectSample), parsed as for locals and written
into the debuggee (evaluate, which reads the process, sees them); a HashSet's elements are
refused with the reason."""

from __future__ import annotations

from typing import Any

from support.adapter_session import children, frame_variables, launched, ok, top_frame
from support.dap_wire import WirePeer


def set_child(peer: WirePeer, reference: int, name: str, value: str) -> dict[str, Any]:
    return peer.request("setVariable", {"variablesReference": reference, "name": name, "value": value})


def evaluate(peer: WirePeer, frame_id: int, expression: str) -> str:
    result: str = ok(peer.request("evaluate", {"expression": expression, "frameId": frame_id}, timeout=30))["result"]
    return result


def test_an_array_element_and_a_list_item_take_new_values() -> None:
    with launched("AdapterSample", markers=["locals"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        local = frame_variables(peer, frame["id"])
        numbers, items = local["numbers"]["variablesReference"], local["list"]["variablesReference"]
        answer = ok(set_child(peer, numbers, "[1]", "20"))
        assert (answer["value"], answer["type"]) == ("20", "int"), "the new value, not the old one"
        assert children(peer, numbers)["[1]"]["value"] == "20"
        assert evaluate(peer, frame["id"], "numbers[1]") == "20"
        assert ok(set_child(peer, items, "[2]", "0x1F"))["value"] == "31"
        assert evaluate(peer, frame["id"], "list[2]") == "31"
        assert children(peer, items)["[2]"]["value"] == "31"
        refused = set_child(peer, numbers, "[0]", "3000000000")
        assert not refused["success"] and "out of range for int" in refused["message"]
        missing = set_child(peer, items, "[7]", "1")
        assert not missing["success"] and "no item '[7]'" in missing["message"]
        assert evaluate(peer, frame["id"], "numbers[0] + list[0]") == "11", "refused writes change nothing"


def test_dictionary_queue_and_stack_items_change_and_a_hash_set_element_is_refused() -> None:
    with launched("InspectSample", args=["props"], markers=["props"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        local = frame_variables(peer, frame["id"])
        ages = children(peer, local["ages"]["variablesReference"])
        assert '["ann"]' in ages, list(ages)
        answer = ok(set_child(peer, local["ages"]["variablesReference"], '["ann"]', "32"))
        assert answer["value"] == "32"
        assert evaluate(peer, frame["id"], 'ages["ann"]') == "32"
        assert evaluate(peer, frame["id"], 'ages["dee"]') == "50", "only that entry"
        wrong = set_child(peer, local["ages"]["variablesReference"], '["dee"]', '"old"')
        assert not wrong["success"] and "not a valid int" in wrong["message"]
        # a Queue's [0] is its head and a Stack's [0] its top, as they are shown
        assert ok(set_child(peer, local["queue"]["variablesReference"], "[0]", '"head"'))["value"] == '"head"'
        assert evaluate(peer, frame["id"], "queue.Peek()") == '"head"'
        assert ok(set_child(peer, local["stack"]["variablesReference"], "[0]", "9"))["value"] == "9"
        assert evaluate(peer, frame["id"], "stack.Peek()") == "9"
        refused = set_child(peer, local["tags"]["variablesReference"], "[0]", '"z"')
        assert not refused["success"] and "HashSet" in refused["message"]
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
