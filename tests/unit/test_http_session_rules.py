"""The session rules of pyinspect.server.http_sessions without a server: which session
is evicted (the least recently used idle one, never a busy one), refusal only when all
are busy, and the bounded event store's replay."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp.server.streamable_http import EventMessage
from mcp_types import JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from pyinspect.server.http_sessions import EvictingSessionManager, SessionEvents


class Busy:
    """A stand-in transport: busy while a request is in flight."""

    def __init__(self, in_flight: int) -> None:
        self._requests_in_flight = in_flight


class Spawner:
    def __init__(self) -> None:
        self.started: list[tuple[Any, ...]] = []

    def start_soon(self, *call: Any) -> None:
        self.started.append(call)


async def ended(_: str) -> None:
    """Nothing to close in these tests."""


def manager_with(states: dict[str, bool]) -> tuple[EvictingSessionManager, Spawner]:
    """A full manager whose sessions (least recently used first) are busy or idle."""
    manager = EvictingSessionManager(object(), ended, max_sessions=len(states))
    spawner = Spawner()
    manager._task_group = spawner  # type: ignore[assignment]
    for session_id, busy in states.items():
        manager._server_instances[session_id] = Busy(1 if busy else 0)  # type: ignore[assignment]
        manager._last_used[session_id] = 0.0
    return manager, spawner


def test_the_least_recently_used_idle_session_makes_room_never_a_busy_one() -> None:
    manager, spawner = manager_with({"oldest-busy": True, "old-idle": False, "new-idle": False})
    admitted = manager._admit_session(None)
    assert admitted is not None and admitted.mcp_session_id in manager._server_instances
    assert set(manager._server_instances) == {"oldest-busy", "new-idle", admitted.mcp_session_id}
    assert "evicted" in manager._ended["old-idle"]
    assert [call[1] for call in spawner.started] == ["old-idle"]  # its transport is terminated, its state closed


def test_a_new_session_is_refused_only_when_every_session_is_busy() -> None:
    manager, spawner = manager_with({"a": True, "b": True})
    assert manager._admit_session(None) is None
    assert set(manager._server_instances) == {"a", "b"} and not spawner.started


def test_a_session_whose_call_lost_its_connection_is_busy_until_answered() -> None:
    manager, _ = manager_with({"dropped": False})
    events = manager._events["dropped"] = SessionEvents()
    asyncio.run(events.store_event("7", None))  # the priming event of request 7's stream
    assert manager._admit_session(None) is None
    asyncio.run(events.store_event("7", JSONRPCResponse(jsonrpc="2.0", id=7, result={})))
    assert manager._admit_session(None) is not None


def test_events_replay_after_an_id_within_their_stream_and_are_bounded() -> None:
    async def scenario() -> None:
        events = SessionEvents(limit=5)
        priming = await events.store_event("1", None)
        first = await events.store_event("1", JSONRPCNotification(jsonrpc="2.0", method="notifications/progress"))
        await events.store_event("2", JSONRPCRequest(jsonrpc="2.0", id=2, method="ping"))  # another stream
        await events.store_event("1", JSONRPCNotification(jsonrpc="2.0", method="notifications/progress"))
        await events.store_event("1", JSONRPCResponse(jsonrpc="2.0", id=1, result={}))
        got: list[EventMessage] = []

        async def send(event: EventMessage) -> None:
            got.append(event)

        assert await events.replay_events_after(first, send) == "1"
        assert [type(e.message).__name__ for e in got] == ["JSONRPCNotification", "JSONRPCResponse"]
        assert [int(e.event_id or 0) for e in got] == sorted(int(e.event_id or 0) for e in got)
        await events.store_event("3", None)  # a sixth event: the oldest (the priming) is forgotten
        assert await events.replay_events_after(priming, send) is None
        assert await events.replay_events_after("not-an-id", send) is None

    asyncio.run(scenario())
