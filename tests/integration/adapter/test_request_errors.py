"""Bad requests to our adapter get error responses with a clear message, and the adapter
keeps working afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.adapter_session import launched, ok, top_frame
from support.dap_wire import WirePeer
from support.targets import target_source

TARGET = "AdapterSample"


@pytest.fixture
def stopped() -> Iterator[tuple[WirePeer, int]]:
    with launched(TARGET, markers=["inner"]) as peer:
        yield peer, peer.wait_event("stopped", timeout=30)["body"]["threadId"]


def error_of(response: dict) -> str:  # type: ignore[type-arg]
    assert response["success"] is False, response
    message: str = response["message"]
    return message


@pytest.mark.parametrize(("command", "arguments", "expected"), [
    ("stackTrace", {"threadId": 4242}, "Unknown thread 4242"),
    ("stackTrace", {}, "missing argument 'threadId'"),
    ("scopes", {"frameId": 999999}, "Unknown frame id 999999"),
    ("variables", {"variablesReference": 999999}, "Unknown variablesReference 999999"),
    ("next", {"threadId": 4242}, "Unknown thread 4242"),
    ("evaluate", {"expression": "n", "frameId": 999999}, "Unknown frame id 999999"),
    ("evaluate", {"frameId": 1}, "evaluate needs 'expression'"),
    ("evaluate", {"expression": "n", "itemBudget": 0}, "must be positive"),
    ("readMemory", {"memoryReference": "0x10"}, "missing argument 'count'"),
    ("setBreakpoints", {"source": {"path": "x.cs"}, "breakpoints": [{"line": 3, "hitCondition": "often"}]},
     "bad hitCondition"),
    ("setBreakpoints", {"breakpoints": []}, "source.path"),
    ("launch", {"program": "/nowhere/App.dll"}, "already debugging"),
    ("stackTrace", {"threadId": "one"}, "bad arguments"),
    ("madeUpCommand", {}, "unsupported command"),
])
def test_bad_requests_are_answered_with_errors(stopped: tuple[WirePeer, int], command: str,
                                               arguments: dict, expected: str) -> None:  # type: ignore[type-arg]
    peer, thread = stopped
    assert expected in error_of(peer.request(command, arguments))
    assert top_frame(peer, thread)["name"] == "AdapterSample.Chain.Inner()"


def test_negative_paging_is_rejected(stopped: tuple[WirePeer, int]) -> None:
    peer, thread = stopped
    frame = top_frame(peer, thread)
    scope = ok(peer.request("scopes", {"frameId": frame["id"]}))["scopes"][0]
    assert "negative" in error_of(peer.request("variables", {"variablesReference": scope["variablesReference"],
                                                             "start": -1}))


def test_requests_before_any_process_say_what_to_do_first() -> None:
    peer = WirePeer()
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        assert "launch" in error_of(peer.request("threads"))
        assert "program not found" in error_of(peer.request("launch", {"program": "/nowhere/App.dll"}))
        assert "no process with id" in error_of(peer.request("attach", {"processId": 999999999}))
        pending = ok(peer.request("setBreakpoints", {"source": {"path": str(target_source(TARGET))},
                                                     "breakpoints": [{"line": 10_000}]}))
        assert pending["breakpoints"][0]["verified"] is False
    finally:
        peer.close()
