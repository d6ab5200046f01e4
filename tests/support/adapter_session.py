"""Launching a debuggee under our adapter for tests: initialize, launch, breakpoints by
`// @bp` marker, configurationDone, then the first stop. Raw DAP through WirePeer."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll, target_source


def ok(response: dict[str, Any]) -> dict[str, Any]:
    """The body of a successful response (fails the test with the message otherwise)."""
    assert response["success"], response.get("message")
    body: dict[str, Any] = response.get("body") or {}
    return body


def set_breakpoints(peer: WirePeer, target: str, markers: Sequence[str | dict[str, Any]],
                    file: str = "Program.cs") -> list[dict[str, Any]]:
    """Breakpoints at markers of one source file; a dict marker is {"marker": name, ...extra DAP fields}."""
    requested = []
    for marker in markers:
        extra = dict(marker) if isinstance(marker, dict) else {"marker": marker}
        name = extra.pop("marker")
        requested.append({"line": marker_line(target, name, file), **extra})
    body = ok(peer.request("setBreakpoints", {"source": {"path": str(target_source(target, file))},
                                              "breakpoints": requested}))
    return list(body["breakpoints"])


@contextmanager
def launched(target: str, args: Sequence[str] = (), markers: Sequence[str | dict[str, Any]] = (),
             stop_at_entry: bool = False, file: str = "Program.cs", **launch_extra: Any) -> Iterator[WirePeer]:
    """A peer whose debuggee has been launched and configured (not yet stopped), with
    breakpoints at markers of `file`; keyword arguments go into the launch request as they
    are (`justMyCode=False`)."""
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll(target)), "args": list(args),
                                   "stopAtEntry": stop_at_entry, **launch_extra}, timeout=30))
        if markers:
            set_breakpoints(peer, target, markers, file)
        ok(peer.request("configurationDone"))
        yield peer
    finally:
        peer.close()


def next_stop_or_end(peer: WirePeer, timeout: float = 120.0) -> dict[str, Any]:
    """The next `stopped` or `terminated` event (taken off the peer's list; bounded wait)."""
    deadline = time.monotonic() + timeout
    while True:
        for event in peer.events:
            if event["event"] in ("stopped", "terminated"):
                peer.events.remove(event)
                return event
        peer.next_message(max(0.01, deadline - time.monotonic()))


def output_of(peer: WirePeer, category: str | None = None) -> str:
    """Everything the adapter has sent as `output` events so far (of one category if given)."""
    return "".join(e["body"]["output"] for e in peer.events
                   if e["event"] == "output" and (category is None or e["body"].get("category") == category))


def top_frame(peer: WirePeer, thread_id: int) -> dict[str, Any]:
    frames: list[dict[str, Any]] = ok(peer.request("stackTrace", {"threadId": thread_id}))["stackFrames"]
    return frames[0]


def frame_variables(peer: WirePeer, frame_id: int, **extra: Any) -> dict[str, dict[str, Any]]:
    scopes = ok(peer.request("scopes", {"frameId": frame_id}))["scopes"]
    assert [s["name"] for s in scopes] == ["Locals"]
    return children(peer, scopes[0]["variablesReference"], **extra)


def children(peer: WirePeer, reference: int, **extra: Any) -> dict[str, dict[str, Any]]:
    body = ok(peer.request("variables", {"variablesReference": reference, **extra}))
    return {v["name"]: v for v in body["variables"]}


class PausedAt:
    """A launched debuggee at its next stop: the stopped thread, its top frame, and
    evaluation there as the Immediate window asks (`context: repl`)."""

    def __init__(self, peer: WirePeer) -> None:
        self.peer = peer
        self.thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        self.frame = top_frame(peer, self.thread)["id"]

    def evaluate(self, expression: str, **extra: Any) -> dict[str, Any]:
        arguments = {"expression": expression, "frameId": self.frame, "context": "repl", **extra}
        return self.peer.request("evaluate", arguments, timeout=60)
