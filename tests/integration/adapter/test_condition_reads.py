"""Breakpoint conditions and log points read from memory at breakpoint speed keep their
meaning: ConditionBench's hot line (`o = orders[i % 100]; sum += o.Id`) over 250
iterations, where the first hit learns where `i`, `o` and the fields sit and every later
hit reads them from the stack and the object. Each stop's `i` is checked through
`evaluate`, which reads through the frame, so a wrong memory read would stop elsewhere.
A condition that is not C# is refused at setBreakpoints, not at the hit."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from support.adapter_session import launched, next_stop_or_end, ok, output_of, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_source

TARGET = "ConditionBench"
ITERATIONS = 250


def stopped_iterations(peer: WirePeer) -> list[int]:
    """`i` at every stop until the program ends, continuing after each."""
    seen = []
    while (event := next_stop_or_end(peer))["event"] == "stopped":
        thread = event["body"]["threadId"]
        frame = top_frame(peer, thread)
        seen.append(int(ok(peer.request("evaluate", {"expression": "i", "frameId": frame["id"]}))["result"]))
        ok(peer.request("continue", {"threadId": thread}))
    return seen


def run_with(tmp_path: Path, **fields: Any) -> AbstractContextManager[WirePeer]:
    return launched(TARGET, [str(tmp_path / "result.txt"), str(ITERATIONS)], [{"marker": "hot", **fields}])


def test_a_field_and_string_condition_stops_exactly_where_it_holds(tmp_path: Path) -> None:
    with run_with(tmp_path, condition='o.Id == 42 && o.Name == "order42"') as peer:
        assert stopped_iterations(peer) == [42, 142, 242]


def test_a_decimal_compare_and_a_local(tmp_path: Path) -> None:
    with run_with(tmp_path, condition="o.Total == 63m && i > 100") as peer:
        assert stopped_iterations(peer) == [142, 242]


def test_a_condition_calling_a_getter_keeps_its_meaning(tmp_path: Path) -> None:
    with run_with(tmp_path, condition="!o.IsBig && o.Id == 7") as peer:
        assert stopped_iterations(peer) == [7, 107, 207]


def test_a_hit_condition_counts_only_hits_where_the_condition_holds(tmp_path: Path) -> None:
    with run_with(tmp_path, condition="o.Id % 50 == 0", hitCondition="% 2") as peer:
        assert stopped_iterations(peer) == [50, 150]


def test_log_points_read_fields_strings_and_decimals_at_every_hit(tmp_path: Path) -> None:
    with run_with(tmp_path, logMessage="i={i} id={o.Id} name={o.Name} total={o.Total} big={o.IsBig}") as peer:
        assert stopped_iterations(peer) == []
        lines = [line for line in output_of(peer, "console").splitlines() if line.startswith("i=")]
    assert len(lines) == ITERATIONS
    for i, line in enumerate(lines):
        n = i % 100
        total = f"{n * 1.5:.1f}"  # `n * 1.5m` keeps the decimal's scale: 0.0, 1.5, 3.0
        assert line == f"i={i} id={n} name=order{n} total={total} big=false", (i, line)


def test_a_condition_that_is_not_csharp_is_refused_when_set(tmp_path: Path) -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        line = marker_line(TARGET, "hot")
        body = ok(peer.request("setBreakpoints", {"source": {"path": str(target_source(TARGET))},
                                                  "breakpoints": [{"line": line, "condition": "o.Id =="}, {"line": line + 1}]}))
        refused, other = body["breakpoints"]
        assert refused["verified"] is False
        assert refused["message"].startswith("condition 'o.Id ==' is not a C# expression: "), refused
        assert refused["message"].endswith("Expected expression"), refused  # Roslyn's message
        assert "condition" not in (other.get("message") or "")
    finally:
        peer.close()
