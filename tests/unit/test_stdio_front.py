"""The stdio front (pyinspect.server.stdio_front) over pipes, with no SDK and no process:
stored replies go out before the SDK serves, the SDK's own replies to them are dropped
(and checked), first replies are stored, and every line reaches the SDK in order."""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from pyinspect.server.reply_cache import ReplyCache, reply_key
from pyinspect.server.stdio_front import StdioFront

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
HANDSHAKE_RESULT = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "pyinspect"}}
TOOLS_RESULT = {"tools": [{"name": "debug_state", "inputSchema": {"type": "object"}}]}


class Wire:
    """Both ends of a front's stdio, as a host and as the SDK see them."""

    def __init__(self, cache: ReplyCache) -> None:
        host_out, front_in = os.pipe()
        front_out, host_in = os.pipe()
        self.to_front: IO[bytes] = os.fdopen(front_in, "wb", buffering=0)
        self.from_front: IO[bytes] = os.fdopen(front_out, "rb")
        self.front = StdioFront(os.fdopen(host_out, "rb"), os.fdopen(host_in, "wb"), cache)
        self.delivered: queue.Queue[bytes | None] = queue.Queue()

    def send(self, message: dict[str, Any]) -> None:
        self.to_front.write(json.dumps(message).encode() + b"\n")

    def receive(self) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        reader = threading.Thread(target=lambda: answer.update(json.loads(self.from_front.readline())), daemon=True)
        reader.start()
        reader.join(10)
        assert answer, "the front wrote nothing within 10 s"
        return answer

    def sdk_takes_over(self) -> None:
        self.front.hand_over(self.delivered.put)

    def sdk_reads(self, count: int) -> list[dict[str, Any]]:
        """What the SDK reads next; it can only reply to what it has read."""
        return [json.loads(self.delivered.get(timeout=5) or b"") for _ in range(count)]

    def sdk_replies(self, request_id: int, result: dict[str, Any]) -> None:
        self.front.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")

    def close(self) -> None:
        self.to_front.close()


@pytest.fixture
def cache(tmp_path: Path) -> ReplyCache:
    return ReplyCache(tmp_path / "replies.json", "key")


@pytest.fixture
def wire(cache: ReplyCache) -> Iterator[Wire]:
    opened = Wire(cache)
    yield opened
    opened.close()


def store_handshake(cache: ReplyCache) -> None:
    handshake = reply_key(INITIALIZE, None)
    assert handshake is not None
    cache.put(handshake, HANDSHAKE_RESULT)
    cache.put(f"tools/list after {handshake}", TOOLS_RESULT)


def test_stored_replies_are_sent_before_the_sdk_serves_and_its_equal_replies_dropped(
        wire: Wire, cache: ReplyCache) -> None:
    store_handshake(cache)
    wire.send(INITIALIZE)
    assert wire.receive() == {"jsonrpc": "2.0", "id": 0, "result": HANDSHAKE_RESULT}
    wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    wire.send(LIST)
    assert wire.receive() == {"jsonrpc": "2.0", "id": 1, "result": TOOLS_RESULT}
    wire.sdk_takes_over()
    assert [line["method"] for line in wire.sdk_reads(3)] == [
        "initialize", "notifications/initialized", "tools/list"]  # the SDK still sees the whole session
    wire.sdk_replies(0, HANDSHAKE_RESULT)
    wire.sdk_replies(1, TOOLS_RESULT)
    wire.sdk_replies(2, {"content": []})  # a tool call's answer passes
    assert wire.receive() == {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}


def test_without_stored_replies_the_sdk_answers_and_its_replies_are_stored(
        wire: Wire, cache: ReplyCache, tmp_path: Path) -> None:
    wire.send(INITIALIZE)
    wire.send(LIST)
    wire.sdk_takes_over()
    wire.sdk_reads(2)
    wire.sdk_replies(0, HANDSHAKE_RESULT)
    assert wire.receive()["result"] == HANDSHAKE_RESULT
    wire.sdk_replies(1, TOOLS_RESULT)
    assert wire.receive()["result"] == TOOLS_RESULT
    stored = ReplyCache(tmp_path / "replies.json", "key")
    handshake = reply_key(INITIALIZE, None)
    assert handshake is not None and stored.get(handshake) == HANDSHAKE_RESULT
    assert stored.get(f"tools/list after {handshake}") == TOOLS_RESULT


def test_a_stored_reply_the_sdk_contradicts_is_logged_and_replaced(
        wire: Wire, cache: ReplyCache, caplog: pytest.LogCaptureFixture) -> None:
    store_handshake(cache)
    wire.send(INITIALIZE)
    wire.receive()
    wire.send(LIST)
    assert wire.receive()["result"] == TOOLS_RESULT
    wire.sdk_takes_over()
    wire.sdk_reads(2)
    truth = {"tools": [{"name": "debug_state", "description": "edited", "inputSchema": {"type": "object"}}]}
    with caplog.at_level(logging.WARNING, logger="pyinspect.server.stdio_front"):
        wire.sdk_replies(0, HANDSHAKE_RESULT)
        wire.sdk_replies(1, truth)
    assert "differed from the SDK's" in caplog.text
    handshake = reply_key(INITIALIZE, None)
    assert handshake is not None
    assert cache.get(f"tools/list after {handshake}") == truth


def test_once_the_sdk_serves_the_front_answers_nothing(wire: Wire, cache: ReplyCache) -> None:
    store_handshake(cache)
    wire.sdk_takes_over()
    wire.send(INITIALIZE)
    assert wire.sdk_reads(1)[0]["id"] == 0
    wire.sdk_replies(0, {**HANDSHAKE_RESULT, "instructions": "from the SDK"})
    assert wire.receive()["result"]["instructions"] == "from the SDK"


def test_lines_reach_the_sdk_in_order_across_the_hand_over_and_the_end_is_told(wire: Wire) -> None:
    for number in range(50):
        wire.send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"n": number}})
        if number == 20:
            wire.sdk_takes_over()
    wire.send({"broken": "not a request"})
    wire.to_front.write(b"{not json\n")
    wire.close()
    lines = []
    while (line := wire.delivered.get(timeout=5)) is not None:
        lines.append(line)
    assert [json.loads(line)["params"]["n"] for line in lines[:50]] == list(range(50))
    assert lines[50:] == [b'{"broken": "not a request"}\n', b"{not json\n"]  # the SDK answers what is malformed
