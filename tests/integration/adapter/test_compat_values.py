"""What everyday watches and "Set Value" send, taken as netcoredbg and vsdbg take it:
[Flags] enums named by value as Enum.ToString names them; setVariable and setExpression
values evaluated as C# in the frame; a local a lambda captured, named after an await; a
user extension method called on a string. CompatSample `values` and `captured` modes."""

from __future__ import annotations

from support.adapter_session import PausedAt, frame_variables, launched, ok, output_of

TARGET = "CompatSample"


def test_flags_are_listed_by_value_as_enum_to_string_lists_them() -> None:
    with launched(TARGET, args=["values"], markers=["values"]) as peer:
        paused = PausedAt(peer)
        local = frame_variables(peer, paused.frame)
        assert local["access"]["value"] == "read | write | append"
        assert local["some"]["value"] == "read | append"
        assert ok(paused.evaluate("access"))["result"] == "read | write | append"
        assert ok(paused.evaluate("Access.write | Access.append"))["result"] == "write | append"
        ok(peer.request("continue", {"threadId": paused.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "az 7 3 0.5 read, write, append read, append one two three\n" in output_of(peer)


def test_set_variable_evaluates_the_value_as_csharp_in_the_frame() -> None:
    with launched(TARGET, args=["values"], markers=["values"]) as peer:
        paused = PausedAt(peer)
        scope = ok(peer.request("scopes", {"frameId": paused.frame}))["scopes"][0]["variablesReference"]

        def set_value(name: str, value: str) -> dict[str, object]:
            return peer.request("setVariable", {"variablesReference": scope, "name": name, "value": value}, timeout=60)

        assert ok(set_value("varChar", "otherChar"))["value"] == "'z'"
        assert ok(set_value("total", "count + 1"))["value"] == "8"  # int to long: implicit
        assert ok(set_value("ratio", "count / 2"))["value"] == "3"  # integer division, then to double
        assert ok(set_value("access", "Access.write"))["value"] == "write"
        assert ok(set_value("count", "phrase.Length"))["value"] == "13"
        refused = set_value("count", "ratio")  # double to int needs a cast in C#
        assert refused["success"] is False and "count" in refused["message"], refused
        assert ok(peer.request("setExpression", {"expression": "count", "value": "count * 2",
                                                  "frameId": paused.frame}, timeout=60))["value"] == "26"
        assert frame_variables(peer, paused.frame)["count"]["value"] == "26"
        ok(peer.request("continue", {"threadId": paused.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "zz 26 8 3 write read, append one two three\n" in output_of(peer)


def test_a_captured_local_is_named_after_an_await_and_extension_methods_are_found() -> None:
    with launched(TARGET, args=["captured"], markers=["captured"]) as peer:
        paused = PausedAt(peer)
        assert ok(paused.evaluate("mainVar"))["result"] == "11"
        assert ok(paused.evaluate("mainVar * 2 + seed"))["result"] == "27"
        assert frame_variables(peer, paused.frame)["mainVar"]["value"] == "11"
        assert ok(paused.evaluate('"one two three".WordCount()'))["result"] == "3"
        assert ok(paused.evaluate("TextExtensions.WordCount(\"a b\")"))["result"] == "2"
        missing = paused.evaluate('"x".NoSuchMethod()')
        assert missing["success"] is False and "NoSuchMethod" in missing["message"]
        ok(peer.request("continue", {"threadId": paused.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "read 12\n" in output_of(peer) and "captured 11\n" in output_of(peer)


def test_set_variable_on_an_objects_member_evaluates_in_the_stopped_frame() -> None:
    """No frame comes with an object's member: the value is evaluated where the thread stopped."""
    with launched("InspectSample", args=["props"], markers=["props"]) as peer:
        paused = PausedAt(peer)
        account = frame_variables(peer, paused.frame)["account"]["variablesReference"]
        answer = ok(peer.request("setVariable", {"variablesReference": account, "name": "Owner",
                                                  "value": 'account.Owner + "!"'}, timeout=60))
        assert answer["value"] == '"Ada!"'
        refused = peer.request("setVariable", {"variablesReference": account, "name": "Owner", "value": "numbers.Count"},
                               timeout=60)
        assert refused["success"] is False and "Owner" in refused["message"], refused
        ok(peer.request("continue", {"threadId": paused.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "Ada! 3 3 2 3 2\n" in output_of(peer)


def test_evaluation_follows_csharp_where_it_is_strict() -> None:
    """CompatSample `strict`: `Helper(2)` (a static of the enclosing type) from an instance
    method, a closure and a nested type, in watches and in breakpoint conditions, and a
    static of the base type; `this.Created` refused as C# refuses it (CS0176); a byte
    set to `103u` refused (no implicit uint-to-byte conversion); sizeof of user structs."""
    conditions = [{"marker": "strict_instance", "condition": "Helper(2) == 102"},
                  {"marker": "strict_closure", "condition": "Helper(n) == 101"}, "strict_nested"]
    with launched(TARGET, args=["strict"], markers=conditions, file="Strictness.cs") as peer:
        paused = PausedAt(peer)
        assert ok(paused.evaluate("Helper(2)"))["result"] == "102"
        assert ok(paused.evaluate("BaseHelper(1)"))["result"] == "1001"  # a static of the base type
        assert ok(paused.evaluate("Created"))["result"] == "3"
        assert ok(paused.evaluate("Counter.Created"))["result"] == "3"
        through_instance = paused.evaluate("this.Created")
        assert through_instance["success"] is False and "CS0176" in through_instance["message"], through_instance
        assert ok(paused.evaluate("sizeof(Pair)"))["result"] == "16"
        assert ok(paused.evaluate("sizeof(Tiny)"))["result"] == "2"
        assert ok(paused.evaluate("sizeof(Pair) + sizeof(int)"))["result"] == "20"
        scope = ok(peer.request("scopes", {"frameId": paused.frame}))["scopes"][0]["variablesReference"]
        refused = peer.request("setVariable", {"variablesReference": scope, "name": "small", "value": "103u"}, timeout=60)
        assert refused["success"] is False and "uint" in refused["message"], refused
        assert ok(peer.request("setVariable", {"variablesReference": scope, "name": "small", "value": "103"}))["value"] == "103"
        ok(peer.request("continue", {"threadId": paused.thread}))
        closure = PausedAt(peer)
        assert ok(closure.evaluate("Helper(3)"))["result"] == "103"
        assert ok(closure.evaluate("offset + _count"))["result"] == "7"
        ok(peer.request("continue", {"threadId": closure.thread}))
        nested = PausedAt(peer)
        assert ok(nested.evaluate("Helper(4) + BaseHelper(0)"))["result"] == "1104"  # the outer type's and its base's
        ok(peer.request("continue", {"threadId": nested.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "strict 115\n" in output_of(peer)  # (1 + 5 + 2) + 1 + 3 + 103
        assert "could not be evaluated" not in output_of(peer), "both conditions call Helper and hold"
