"""Locals a lambda captured (kept in a compiler-generated closure object) under our adapter:
InspectSample's `Scaler.Captures` shows them as plain locals, evaluates and assigns them (the
lambda sees the change), and inside the lambda `this` is the Scaler the code was written in."""

from __future__ import annotations

from support.adapter_session import frame_variables, launched, ok, top_frame
from support.dap_wire import WirePeer

TARGET = "InspectSample"


def evaluate(peer: WirePeer, frame_id: int, expression: str) -> str:
    result: str = ok(peer.request("evaluate", {"expression": expression, "frameId": frame_id, "context": "repl"}, timeout=30))["result"]
    return result


def test_captured_locals_read_like_locals_and_writes_reach_the_lambda() -> None:
    with launched(TARGET, args=["closure"], markers=["closure"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        frame = top_frame(peer, thread)
        assert frame["name"] == "InspectSample.Scaler.Captures()"
        variables = frame_variables(peer, frame["id"])
        assert list(variables) == ["this", "factor", "label", "plain", "scale", "result", "doubled"]
        assert (variables["factor"]["value"], variables["label"]["value"]) == ("3", '"scaled"')
        assert evaluate(peer, frame["id"], "factor * plain + _seed") == "14"
        assert evaluate(peer, frame["id"], "factor = 10") == "10"

        ok(peer.request("stepIn", {"threadId": thread}))
        peer.wait_event("stopped", timeout=30)
        inside = top_frame(peer, thread)
        assert inside["name"] == "InspectSample.Scaler.Captures.AnonymousMethod__0()"
        lambda_variables = frame_variables(peer, inside["id"])
        assert list(lambda_variables) == ["this", "n", "factor"]
        assert lambda_variables["this"]["value"] == "{InspectSample.Scaler}"
        assert (evaluate(peer, inside["id"], "n"), evaluate(peer, inside["id"], "factor")) == ("4", "10")
        assert evaluate(peer, inside["id"], "_seed") == "2"

        ok(peer.request("stepOut", {"threadId": thread}))
        peer.wait_event("stopped", timeout=30)
        ok(peer.request("next", {"threadId": thread}))
        peer.wait_event("stopped", timeout=30)
        after = top_frame(peer, thread)
        assert frame_variables(peer, after["id"])["result"]["value"] == "42"  # 10 * 4 + 2


def test_a_local_function_is_named_inside_its_method() -> None:
    with launched(TARGET, args=["closure"], markers=["closure_local"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        ok(peer.request("stepIn", {"threadId": thread}))
        peer.wait_event("stopped", timeout=30)
        frame = top_frame(peer, thread)
        assert frame["name"] == "InspectSample.Scaler.Captures.Twice()"
        assert evaluate(peer, frame["id"], "x") == "14"  # 3 * 4 + 2
