"""The DAP channel against a scripted peer on OS pipes: framing, correlation, events
buffered from the start, bounded waits, and every pending request failing when the
peer dies."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pyinspect.dap.channel import DapChannel
from pyinspect.dap.client import DapClient
from pyinspect.dap.stream import DapStream
from pyinspect.errors import AdapterDiedError, AdapterTimeoutError, RequestFailedError

Handler = Callable[[dict[str, Any]], list[dict[str, Any]]]


class FakePeer:
    """Answers each request with whatever `handler` returns (responses and events)."""

    def __init__(self, handler: Handler) -> None:
        to_peer_r, to_peer_w = os.pipe()
        from_peer_r, from_peer_w = os.pipe()
        self._in = os.fdopen(to_peer_r, "rb")
        self._out = os.fdopen(from_peer_w, "wb")
        self.stream = DapStream.from_pipes(os.fdopen(from_peer_r, "rb"), os.fdopen(to_peer_w, "wb"))
        self.peer_stream = DapStream.from_pipes(self._in, self._out, "client")
        self.handler = handler
        self.received: list[dict[str, Any]] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            while True:
                request = self.peer_stream.read_message()
                self.received.append(request)
                for message in self.handler(request):
                    self.send(message)
        except Exception:  # noqa: BLE001 - the peer just ends
            return

    def send(self, message: dict[str, Any]) -> None:
        self.peer_stream.write_message(message)

    def send_raw(self, data: bytes) -> None:
        self._out.write(data)
        self._out.flush()

    def die(self) -> None:
        self._out.close()


def response(request: dict[str, Any], body: dict[str, Any] | None = None, success: bool = True,
             message: str | None = None, seq_as_string: bool = False) -> dict[str, Any]:
    seq = request["seq"]
    answer: dict[str, Any] = {"type": "response", "seq": 1000, "command": request["command"],
                              "request_seq": str(seq) if seq_as_string else seq, "success": success}
    if body is not None:
        answer["body"] = body
    if message is not None:
        answer["message"] = message
    return answer


@pytest.fixture
def channel_for() -> Iterator[Callable[[Handler], tuple[DapChannel, FakePeer]]]:
    made: list[tuple[DapChannel, FakePeer]] = []

    def make(handler: Handler) -> tuple[DapChannel, FakePeer]:
        peer = FakePeer(handler)
        channel = DapChannel(peer.stream)
        made.append((channel, peer))
        return channel, peer

    yield make
    for channel, peer in made:
        peer.die()
        channel.join_reader(timeout=2)


def test_a_request_gets_its_own_response_body_even_with_a_string_seq(channel_for: Any) -> None:
    channel, _ = channel_for(lambda r: [response(r, {"threads": [{"id": 1, "name": "main"}]},
                                                 seq_as_string=True)])
    assert DapClient(channel).threads() == [{"id": 1, "name": "main"}]


def test_a_failed_response_raises_with_the_adapters_message(channel_for: Any) -> None:
    channel, _ = channel_for(lambda r: [response(r, success=False, message="process is running")])
    with pytest.raises(RequestFailedError, match="process is running"):
        channel.request("stackTrace", {"threadId": 1})


def test_events_sent_before_anyone_waits_are_buffered(channel_for: Any) -> None:
    channel, _peer = channel_for(lambda r: [response(r), {"type": "event", "seq": 2, "event": "initialized"}])
    channel.request("initialize")
    time.sleep(0.1)  # the event is already in the buffer before the wait starts
    assert channel.wait_event("initialized", timeout=1)["event"] == "initialized"


def test_wait_event_filters_by_predicate(channel_for: Any) -> None:
    def handler(r: dict[str, Any]) -> list[dict[str, Any]]:
        return [response(r)] + [{"type": "event", "seq": i, "event": "stopped", "body": {"threadId": i}}
                                for i in (1, 2)]
    channel, _ = channel_for(handler)
    channel.request("pause")
    event = channel.wait_event("stopped", 1, lambda e: e["body"]["threadId"] == 2)
    assert event["body"]["threadId"] == 2


def test_a_request_without_answer_times_out_within_its_bound(channel_for: Any) -> None:
    channel, _ = channel_for(lambda r: [])
    started = time.monotonic()
    with pytest.raises(AdapterTimeoutError):
        channel.request("threads", timeout=0.3)
    assert time.monotonic() - started < 1.0


def test_every_pending_request_fails_at_once_when_the_peer_dies(channel_for: Any) -> None:
    channel, peer = channel_for(lambda r: [])
    futures = [channel.send_request("threads") for _ in range(3)]
    started = time.monotonic()
    peer.die()
    for future in futures:
        with pytest.raises(AdapterDiedError):
            channel.wait_response(future, "threads", timeout=5)
    assert time.monotonic() - started < 1.0
    with pytest.raises(AdapterDiedError):
        channel.request("threads")
    with pytest.raises(AdapterDiedError):
        channel.wait_event("stopped", timeout=5)


def test_framing_tolerates_extra_headers_and_split_writes(channel_for: Any) -> None:
    channel, peer = channel_for(lambda r: [])
    future = channel.send_request("threads")
    time.sleep(0.05)
    body = json.dumps(response(peer.received[0], {"threads": []})).encode()
    frame = b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    peer.send_raw(frame[:10])
    time.sleep(0.05)
    peer.send_raw(frame[10:])
    assert channel.wait_response(future, "threads", 2)["success"] is True


def test_listeners_see_events_and_the_adapter_closing(channel_for: Any) -> None:
    seen: list[str] = []
    channel, peer = channel_for(lambda r: [response(r), {"type": "event", "seq": 5, "event": "continued"}])
    channel.add_listener(lambda e: seen.append(e["event"]))
    channel.request("continue")
    channel.wait_event("continued", 1)
    peer.die()
    channel.join_reader(timeout=2)
    assert seen == ["continued", "pyinspect.adapterClosed"]
