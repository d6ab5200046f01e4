"""Breakpoint conditions, hit conditions and log points in EvalSample's loop
(`for i in 0..9: name = "item" + i; total += i`): stops exactly at the iterations the
condition selects, a condition that cannot be evaluated stops and says why, log points
interpolate {expressions} and never stop."""

from __future__ import annotations

from pathlib import Path

from support.adapter_session import launched, ok, output_of, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line

TARGET = "EvalSample"


def stops(peer: WirePeer) -> list[dict[str, str]]:
    """Values of i, name and total at each stop until the `after` marker, continuing after each."""
    seen = []
    for _ in range(20):
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stopped["threadId"])
        if int(frame["line"]) == marker_line(TARGET, "after"):
            return seen
        values = {name: ok(peer.request("evaluate", {"expression": name, "frameId": frame["id"]}))["result"]
                  for name in ("i", "name")}
        seen.append(values)
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
    raise AssertionError("never reached the after marker")


def test_a_condition_stops_only_where_it_holds(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")], markers=[{"marker": "loop", "condition": "i == 7"}, "after"]) as peer:
        assert stops(peer) == [{"i": "7", "name": '"item7"'}]


def test_a_condition_over_several_iterations_and_strings(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")],
                  markers=[{"marker": "loop", "condition": 'i % 3 == 0 || name == "item5"'}, "after"]) as peer:
        assert [s["i"] for s in stops(peer)] == ["0", "3", "5", "6", "9"]


def test_hit_conditions_count_only_hits_where_the_condition_holds(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")],
                  markers=[{"marker": "loop", "condition": "i > 2", "hitCondition": "% 3"}, "after"]) as peer:
        assert [s["i"] for s in stops(peer)] == ["5", "8"]


def test_a_condition_that_cannot_be_evaluated_stops_and_says_why(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")],
                  markers=[{"marker": "loop", "condition": "missing > 1"}]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "breakpoint"
        frame = top_frame(peer, stopped["threadId"])
        assert ok(peer.request("evaluate", {"expression": "i", "frameId": frame["id"]}))["result"] == "0"
        text = output_of(peer, "console")
        assert "Breakpoint condition 'missing > 1' could not be evaluated" in text
        assert "'missing' is not a local" in text


def test_a_condition_that_is_not_a_bool_stops_and_says_so(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")], markers=[{"marker": "loop", "condition": "i + 1"}]) as peer:
        peer.wait_event("stopped", timeout=30)
        assert "the condition is not a bool (it is int 1)" in output_of(peer, "console")


def test_log_points_interpolate_expressions_and_never_stop(tmp_path: Path) -> None:
    message = "i={i} name={name} sq={i * i} big={i > 7} {{literal}} bad={nope}"
    with launched(TARGET, args=[str(tmp_path / "t.json")], markers=[{"marker": "loop", "logMessage": message}, "after"]) as peer:
        assert stops(peer) == []
        lines = [line for line in output_of(peer, "console").splitlines() if line.startswith("i=")]
        assert lines[:2] == [
            "i=0 name=item0 sq=0 big=false {literal} bad=<error: 'nope' is not a local, an argument or a field of this>",
            "i=1 name=item1 sq=1 big=false {literal} bad=<error: 'nope' is not a local, an argument or a field of this>",
        ]
        assert len(lines) == 10 and lines[9].startswith("i=9 name=item9 sq=81 big=true")


def test_the_initialize_answer_announces_conditional_breakpoints() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        body = ok(peer.request("initialize", {"adapterID": "coreclr"}))
        assert body["supportsConditionalBreakpoints"] is True
        assert body["supportsLogPoints"] is True
    finally:
        peer.close()


def test_a_condition_may_call_methods_in_the_debuggee(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")],
                  markers=[{"marker": "loop", "condition": 'Config.Twice(i) == 14 || name.EndsWith("9")'}, "after"]) as peer:
        assert [s["i"] for s in stops(peer)] == ["7", "9"]


def test_log_points_interpolate_call_results_from_the_hit_condition_on(tmp_path: Path) -> None:
    with launched(TARGET, args=[str(tmp_path / "t.json")],
                  markers=[{"marker": "loop", "logMessage": "twice={Config.Twice(i)}", "hitCondition": ">= 9"}, "after"]) as peer:
        assert stops(peer) == []
        assert [line for line in output_of(peer, "console").splitlines() if line.startswith("twice=")] == ["twice=16", "twice=18"]
