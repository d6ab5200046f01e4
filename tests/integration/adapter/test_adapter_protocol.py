"""The adapter's protocol layer, spoken to in raw frames: errors are answers, never a crash."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.dap_wire import WirePeer


@pytest.fixture
def peer() -> Iterator[WirePeer]:
    wire = WirePeer()
    yield wire
    wire.close()


def test_initialize_is_answered_before_the_initialized_event(peer: WirePeer) -> None:
    sent = peer.send("initialize", {"adapterID": "coreclr"})
    first = peer.next_message(timeout=15)
    assert first["type"] == "response" and first["request_seq"] == sent and first["success"]
    second = peer.next_message(timeout=15)
    assert second["type"] == "event" and second["event"] == "initialized"


def test_unknown_command_gets_an_error_response(peer: WirePeer) -> None:
    answer = peer.request("noSuchCommand")
    assert answer["success"] is False
    assert "noSuchCommand" in answer["message"]


def test_seq_may_arrive_as_a_string(peer: WirePeer) -> None:
    peer.send("threads", seq="41")
    answer = peer.next_message(timeout=15)
    assert answer["type"] == "response" and answer["request_seq"] == 41


def test_malformed_json_is_ignored_and_the_adapter_keeps_serving(peer: WirePeer) -> None:
    peer.send_raw(b"{ this is not json")
    peer.send_raw(b'{"type": "event", "event": "nonsense"}')
    answer = peer.request("threads")
    assert answer["success"] is False and "attach" in answer["message"]


def test_requests_without_a_process_are_answered_with_an_error(peer: WirePeer) -> None:
    for command in ("threads", "pause", "continue", "terminate"):
        answer = peer.request(command, {"threadId": 1})
        assert answer["success"] is False, command


def test_attach_to_a_missing_process_is_an_error_not_a_crash(peer: WirePeer) -> None:
    answer = peer.request("attach", {"processId": 999_999})
    assert answer["success"] is False
    assert peer.request("threads")["success"] is False  # still serving


def test_disconnect_ends_the_adapter(peer: WirePeer) -> None:
    assert peer.request("disconnect", {})["success"]
    assert peer.proc.wait(timeout=10) == 0


def test_closing_input_ends_the_adapter(peer: WirePeer) -> None:
    peer.close()
    assert peer.proc.returncode == 0


def test_pyinspect_dap_command_runs_the_adapter_on_stdio() -> None:
    import subprocess
    import sys
    from pathlib import Path

    cli = Path(sys.executable).parent / "pyinspect"
    body = b'{"seq": 1, "type": "request", "command": "initialize", "arguments": {}}'
    done = subprocess.run([str(cli), "dap"], check=False, input=b"Content-Length: %d\r\n\r\n" % len(body) + body,
                          capture_output=True, timeout=30)
    assert done.returncode == 0
    assert b'"command":"initialize"' in done.stdout and b'"success":true' in done.stdout
