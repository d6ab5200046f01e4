"""Breakpoints on the continuation lines of multi-line statements (CompatSample `lines`): a
fluent chain, a multi-line argument list, an object initializer and a LINQ query bind to the
statement's own sequence point (its first line), a line between statements to the next
statement, a query clause's line to its lambda, a line inside a lambda's block to the
lambda's next statement; the program stops once at each place, naming every breakpoint there."""

from __future__ import annotations

from support.adapter_session import launched, next_stop_or_end, ok, set_breakpoints, top_frame
from support.targets import marker_line

TARGET = "CompatSample"
FILE = "Statements.cs"

# the marker a breakpoint is set at -> the marker of the line it binds to
BINDS_TO = {
    "chain_start": "chain_start", "chain_append": "chain_start", "chain_end": "chain_start",
    "args_first": "args_start", "args_end": "args_start",
    "between": "init_start", "init_x": "init_start", "init_name": "init_start",
    "query_where": "query_where", "query_end": "query_start",
    "lambda_between": "lambda_return", "lines_last": "lines_last",
}


def line(marker: str) -> int:
    return marker_line(TARGET, marker, FILE)


def test_every_line_of_a_multi_line_statement_binds_to_that_statement_and_stops_there() -> None:
    with launched(TARGET, args=["lines"], stop_at_entry=True) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        bound = set_breakpoints(peer, TARGET, list(BINDS_TO), FILE)
        got = {marker: (bp["verified"], bp.get("line")) for marker, bp in zip(BINDS_TO, bound, strict=True)}
        assert got == {marker: (True, line(target)) for marker, target in BINDS_TO.items()}
        ids = {marker: bp["id"] for marker, bp in zip(BINDS_TO, bound, strict=True)}
        stops: list[tuple[int, set[int]]] = []
        ok(peer.request("continue", {"threadId": thread}))
        while (event := next_stop_or_end(peer, timeout=30))["event"] == "stopped":
            thread = event["body"]["threadId"]
            stops.append((top_frame(peer, thread)["line"], set(event["body"]["hitBreakpointIds"])))
            ok(peer.request("continue", {"threadId": thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        # one stop per location, naming every breakpoint bound there; the where-lambda once per number
        expected = ["chain_start", "args_start", "init_start", "query_start"] + ["query_where"] * 6 + ["lines_last", "lambda_return"]
        assert [line_ for line_, _ in stops] == [line(m) for m in expected]
        assert stops[0][1] == {ids["chain_start"], ids["chain_append"], ids["chain_end"]}
        assert stops[2][1] == {ids["between"], ids["init_x"], ids["init_name"]}
