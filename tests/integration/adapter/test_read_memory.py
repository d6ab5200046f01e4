"""readMemory at the memoryReference that variables and evaluate hand out: the bytes are the
runtime's own layout of the object (MethodTable pointer, then a string's length and UTF-16
chars, an int[]'s length and elements), read from the stopped EvalSample."""

from __future__ import annotations

import base64
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import launched, ok, top_frame
from support.dap_wire import WirePeer

Session = tuple[WirePeer, int]


@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    truth_file: Path = tmp_path_factory.mktemp("memory") / "truth.json"
    with launched("EvalSample", args=[str(truth_file)], markers=["eval"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        yield peer, thread


def reference(session: Session, expression: str) -> str:
    peer, thread = session
    body = ok(peer.request("evaluate", {"expression": expression, "frameId": top_frame(peer, thread)["id"]}, timeout=30))
    memory: str = body["memoryReference"]
    return memory


def read(session: Session, memory: str, count: int, offset: int = 0) -> dict[str, Any]:
    return session[0].request("readMemory", {"memoryReference": memory, "offset": offset, "count": count})


def test_a_strings_bytes_are_its_method_table_length_and_utf16_chars(stopped: Session) -> None:
    memory = reference(stopped, "text")
    body = ok(read(stopped, memory, 22))
    data = base64.b64decode(body["data"])
    assert body["address"] == memory and "unreadableBytes" not in body
    assert struct.unpack_from("<i", data, 8)[0] == 5
    assert data[12:22] == "Hello".encode("utf-16-le")
    other = base64.b64decode(ok(read(stopped, reference(stopped, "orders[1].Customer.Name"), 8))["data"])
    assert other[:8] == data[:8], "two strings share System.String's MethodTable"


def test_an_int_arrays_elements_follow_its_length(stopped: Session) -> None:
    memory = reference(stopped, "numbers")
    body = ok(read(stopped, memory, 16, offset=16))
    assert body["address"] == hex(int(memory, 16) + 16)
    assert struct.unpack("<4i", base64.b64decode(body["data"])) == (5, 3, 8, 1)
    length = base64.b64decode(ok(read(stopped, memory, 4, offset=8))["data"])
    assert struct.unpack("<i", length)[0] == 4


def test_unreadable_memory_is_counted_not_invented(stopped: Session) -> None:
    body = ok(read(stopped, "0x10", 32))
    assert body["unreadableBytes"] == 32 and base64.b64decode(body["data"]) == b""


@pytest.mark.parametrize(("arguments", "message"), [
    ({"memoryReference": "nope", "count": 8}, "is not a memory reference"),
    ({"memoryReference": "0x1000", "count": 1 << 21}, "'count' must be between 0 and"),
    ({"count": 8}, "readMemory needs 'memoryReference'"),
])
def test_bad_read_requests_get_clear_errors(stopped: Session, arguments: dict[str, Any], message: str) -> None:
    response = stopped[0].request("readMemory", arguments)
    assert response["success"] is False and message in response["message"], response
