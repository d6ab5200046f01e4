"""`pyinspect serve --http` outlives its clients (pyinspect.server.http_sessions): clients
that vanish without DELETE never lock the next one out, each client sees only its own
state and an evicted one is told so, a 401 says how to authenticate, and a connection
dropped in the middle of a heap walk is resumed with Last-Event-ID: the progress it
missed and the answer. A real server over real HTTP, spoken to in raw HTTP where the
wire itself is what is checked."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_calls import call_ok, story_line, story_source
from support.targets import running_target, wait_for_file
from test_transports import TOKEN, serving_http

VERSION = "2025-11-25"
SESSION = "mcp-session-id"


@pytest.fixture
def port() -> Iterator[int]:
    with serving_http(env={**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN}) as (served, _):
        yield served


class Events:
    """The SSE events of one response, read as they come: dicts of id, data, retry."""

    def __init__(self, response: httpx2.Response) -> None:
        self._lines = response.iter_lines()

    def __iter__(self) -> Iterator[dict[str, str]]:
        event: dict[str, str] = {}
        for line in self._lines:
            if not line:
                if event:
                    yield event
                event = {}
                continue
            name, _, value = line.partition(":")
            event[name] = event.get(name, "") + value.removeprefix(" ")


def message(event: dict[str, str]) -> dict[str, Any] | None:
    """The JSON-RPC message an event carries (None for a priming event)."""
    data = event.get("data", "")
    return json.loads(data) if data.strip() else None


class RawClient:
    """One MCP session spoken in raw HTTP."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.http = httpx2.Client(timeout=httpx2.Timeout(120.0), headers={
            "Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream"})
        self.session: str | None = None
        self._ids = 0

    def headers(self) -> dict[str, str]:
        return {SESSION: self.session, "mcp-protocol-version": VERSION} if self.session else {}

    def initialize(self) -> dict[str, Any]:
        response, answer = self.request("initialize", {"protocolVersion": VERSION, "capabilities": {},
                                                       "clientInfo": {"name": "raw", "version": "0"}})
        self.session = response.headers[SESSION]
        notified = self.http.post(self.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                                  headers=self.headers())
        assert notified.status_code == 202, notified.text
        return answer

    def request(self, method: str, params: dict[str, Any]) -> tuple[httpx2.Response, dict[str, Any]]:
        """POST one request and read its SSE stream to the answer."""
        self._ids += 1
        body = {"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params}
        with self.http.stream("POST", self.url, json=body, headers=self.headers()) as response:
            assert response.status_code == 200, response.read()
            for event in Events(response):
                sent = message(event)
                if sent is not None and sent.get("id") == self._ids:
                    return response, sent
        raise AssertionError(f"{method}: the stream ended with no answer")

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        _, answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        result: dict[str, Any] = answer["result"]
        return result


def test_a_hundred_clients_that_vanish_without_delete_never_lock_out_the_next(port: int) -> None:
    first = RawClient(port)
    first.initialize()
    assert not first.call("breakpoint_set", file=story_source(), line=story_line("exit"))["isError"]
    vanished = [first.session]
    for _ in range(99):
        client = RawClient(port)  # never DELETEs its session, as TypeScript's Client.close()
        client.initialize()
        assert not client.call("debug_state")["isError"]
        vanished.append(client.session)
    assert len(set(vanished)) == 100
    # the evicted first client is told why, and that its state is gone
    gone = first.http.post(first.url, json={"jsonrpc": "2.0", "id": 9, "method": "tools/list"},
                           headers=first.headers())
    assert gone.status_code == 404, gone.text
    assert "evicted" in gone.text and "debug session and heap were closed" in gone.text, gone.text
    # the 101st is served, and sees none of the first client's state
    latest = RawClient(port)
    latest.initialize()
    assert latest.call("breakpoint_list")["structuredContent"]["breakpoints"] == []


def session_client(port: int) -> Client:
    """The Python SDK's client in the handshake era (initialize, an MCP session): the
    default era of the SDK (server/discover) is stateless and has no session of its own."""
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=httpx2.Timeout(60.0))
    return Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http), mode="legacy")


@pytest.mark.asyncio
async def test_each_client_sees_only_its_own_debug_state(port: int) -> None:
    async with session_client(port) as one, session_client(port) as other:
        await call_ok(one, "breakpoint_set", file=story_source(), line=story_line("exit"))
        assert (await call_ok(other, "breakpoint_list"))["breakpoints"] == []
        assert [b["line"] for b in (await call_ok(one, "breakpoint_list"))["breakpoints"]] == [story_line("exit")]


def test_a_401_says_how_to_authenticate(port: int) -> None:
    refused = httpx2.post(f"http://127.0.0.1:{port}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                          headers={"Accept": "application/json, text/event-stream"})
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"].startswith("Bearer ")
    text = refused.json()["error"]["message"]
    assert "--token-file" in text and "PYINSPECT_HTTP_TOKEN" in text and "Authorization: Bearer" in text, text


def test_an_unknown_tool_is_a_protocol_error_over_http(port: int) -> None:
    client = RawClient(port)
    assert client.initialize()["result"]["serverInfo"]["version"] == "0.1.0"
    _, answer = client.request("tools/call", {"name": "heap_stat", "arguments": {}})
    assert answer["error"]["code"] == -32602 and "did you mean 'heap_stats'" in answer["error"]["message"], answer
    _, answer = client.request("prompts/get", {"name": "no_such_prompt"})
    assert answer["error"]["code"] == -32602, answer


def test_a_heap_walk_dropped_mid_way_is_resumed_with_last_event_id(port: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ready = Path(folder) / "ready.json"
        with running_target("HeapTruth", "fill", "3000000", str(ready)) as proc:
            wait_for_file(ready, timeout=300, proc=proc)
            client = RawClient(port)
            client.initialize()
            assert not client.call("heap_attach", pid=proc.pid)["isError"]
            seen, dropped_after = walk_until_first_progress(client)
            resumed = resume(client, dropped_after)
    progress = [m for m in resumed if m.get("method") == "notifications/progress"]
    answers = [m for m in resumed if "result" in m or "error" in m]
    assert answers and answers[-1]["id"] == client._ids, resumed
    stats = answers[-1]["result"]["structuredContent"]
    assert stats["types"] and not answers[-1]["result"].get("isError"), stats
    assert progress, "no progress after the drop"
    walked = [p["params"]["progress"] for p in seen + progress if p.get("method") == "notifications/progress"]
    assert walked == sorted(walked) and walked[-1] == progress[-1]["params"]["total"], walked


def walk_until_first_progress(client: RawClient) -> tuple[list[dict[str, Any]], str]:
    """heap_stats, its connection closed as soon as one progress event has come: (what
    came, the last event id seen). The stream must open with a priming event."""
    client._ids += 1
    body = {"jsonrpc": "2.0", "id": client._ids, "method": "tools/call",
            "params": {"name": "heap_stats", "arguments": {"top": 5}, "_meta": {"progressToken": "walk"}}}
    seen: list[dict[str, Any]] = []
    with client.http.stream("POST", client.url, json=body, headers=client.headers()) as response:
        events = iter(Events(response))
        priming = next(events)
        assert priming.get("id") and message(priming) is None and priming.get("retry") == "1000", priming
        for event in events:
            assert event.get("id"), event
            sent = message(event)
            assert sent is not None and "result" not in sent, f"the walk ended before the drop: {sent}"
            seen.append(sent)
            if sent.get("method") == "notifications/progress":
                return seen, event["id"]
    raise AssertionError("the stream ended with no progress")


def resume(client: RawClient, last_event_id: str) -> list[dict[str, Any]]:
    """GET with Last-Event-ID: the rest of the stream, to the answer."""
    got: list[dict[str, Any]] = []
    headers = {**client.headers(), "Last-Event-ID": last_event_id, "Accept": "text/event-stream"}
    with client.http.stream("GET", client.url, headers=headers) as response:
        assert response.status_code == 200, response.read()
        for event in Events(response):
            sent = message(event)
            if sent is None:
                continue
            assert int(event["id"]) > int(last_event_id), (event, last_event_id)
            got.append(sent)
            if sent.get("id") == client._ids:
                return got
    raise AssertionError(f"the resumed stream ended with no answer: {got}")
