"""setVariable: a local changes what the program computes; a string field is replaced by a
new string made in the debuggee; bad values are refused with a reason. InspectSample."""

from __future__ import annotations

from support.adapter_session import children, frame_variables, launched, ok, output_of, top_frame

TARGET = "InspectSample"


def test_setting_a_local_changes_the_programs_result() -> None:
    with launched(TARGET, args=["limit"], markers=["limit"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        scope = ok(peer.request("scopes", {"frameId": frame["id"]}))["scopes"][0]
        answer = ok(peer.request("setVariable", {"variablesReference": scope["variablesReference"],
                                                  "name": "limit", "value": "5"}))
        assert answer["value"] == "5" and answer["type"] == "int"
        assert frame_variables(peer, frame["id"])["limit"]["value"] == "5"
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "sum 10\n" in output_of(peer)


def test_bad_values_are_refused_and_change_nothing() -> None:
    with launched(TARGET, args=["limit"], markers=["limit"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        reference = ok(peer.request("scopes", {"frameId": frame["id"]}))["scopes"][0]["variablesReference"]
        for value, reason in [("abc", "not a valid int"), ("99999999999", "out of range for int"), ('"x"', "not a valid int")]:
            answer = peer.request("setVariable", {"variablesReference": reference, "name": "limit", "value": value})
            assert answer["success"] is False and reason in answer["message"], answer
        missing = peer.request("setVariable", {"variablesReference": reference, "name": "nope", "value": "1"})
        assert missing["success"] is False and "no variable 'nope'" in missing["message"]
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "sum 3\n" in output_of(peer)


def test_a_string_field_gets_a_new_string_the_getters_then_see() -> None:
    with launched(TARGET, args=["props"], markers=["props"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        account = frame_variables(peer, frame["id"])["account"]
        answer = ok(peer.request("setVariable", {"variablesReference": account["variablesReference"],
                                                  "name": "Owner", "value": '"Bea \\"B\\""'}))
        assert answer["value"] == '"Bea \\"B\\""' and answer["type"] == "string"
        members = children(peer, account["variablesReference"])
        assert members["Description"]["value"] == '"Bea \\"B\\" has 120"'
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert 'Bea "B" 3 3 2 3 2\n' in output_of(peer)


def test_set_expression_assigns_a_local_and_a_field_path() -> None:
    with launched(TARGET, args=["props"], markers=["props"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        answer = ok(peer.request("setExpression", {"expression": "account.Owner", "value": '"Cy"', "frameId": frame["id"]}))
        assert answer["value"] == '"Cy"'
        answer = ok(peer.request("setExpression", {"expression": "numbers._items[0]", "value": "0x28",
                                                    "frameId": frame["id"]}))
        assert answer["value"] == "40"
        bad = peer.request("setExpression", {"expression": "account", "value": "1", "frameId": frame["id"]})
        assert bad["success"] is False and "takes null" in bad["message"]
        local = frame_variables(peer, frame["id"])
        assert children(peer, local["account"]["variablesReference"])["Description"]["value"] == '"Cy has 120"'
        assert children(peer, local["numbers"]["variablesReference"])["[0]"]["value"] == "40"
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "Cy 3 3 2 3 2\n" in output_of(peer)
