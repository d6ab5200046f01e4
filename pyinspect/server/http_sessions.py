"""MCP sessions over streamable HTTP that never lock a client out, and answers that
survive a dropped connection.

- At most ``MAX_SESSIONS`` sessions. When a new client needs a place and all are
  taken, the least recently used *idle* session is evicted (no request in flight, no
  call still running for it); only when every session is busy is the new one refused
  (503, saying so). Clients that vanish without DELETE (the TypeScript SDK's
  ``Client.close()``, a crash) therefore never lock anyone out.
- A session with no request in flight for ``idle_timeout`` seconds ends on its own.
- However a session ends, what its client owned is closed (pyinspect.server.clients) and
  its id answers 404 with the reason, so the client starts a new session and never
  sees another client's state.
- Every SSE event carries an id; each request's stream opens with a priming event
  (an id and ``retry:``) for clients of protocol 2025-11-25 and later, and the last
  ``EVENTS_PER_SESSION`` events of a session are kept, so a client whose connection
  dropped reconnects with ``GET`` and ``Last-Event-ID`` and gets the rest of the
  stream: the progress it missed and the final answer.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp.server.streamable_http import (
    GET_STREAM_KEY,
    MCP_SESSION_ID_HEADER,
    EventCallback,
    EventId,
    EventMessage,
    EventStore,
    StreamableHTTPServerTransport,
    StreamId,
)
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCResponse,
)
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

__all__ = ["EVENTS_PER_SESSION", "IDLE_TIMEOUT", "MAX_SESSIONS", "RETRY_MS", "EvictingSessionManager",
           "SessionEvents"]

log = logging.getLogger(__name__)

MAX_SESSIONS = 8
IDLE_TIMEOUT = 300.0
"""Seconds a session may go without a request in flight before it ends (``--session-idle-timeout``)."""
EVENTS_PER_SESSION = 2000
"""Events kept per session for Last-Event-ID replay; older ones are forgotten."""
RETRY_MS = 1000
"""The ``retry:`` an SSE stream suggests: how long a client waits before reconnecting."""
_ENDED_REMEMBERED = 1000

SessionEnded = Callable[[str], Awaitable[None]]


class SessionEvents(EventStore):
    """One session's last ``limit`` SSE events, for replay after ``Last-Event-ID``; also
    knows which request streams are still waiting for their answer (the session is
    busy while one is, even when its client's connection has dropped)."""

    def __init__(self, limit: int = EVENTS_PER_SESSION) -> None:
        self._events: deque[tuple[int, StreamId, JSONRPCMessage | None]] = deque(maxlen=limit)
        self._next = 1
        self._unanswered: set[StreamId] = set()

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = self._next
        self._next += 1
        self._events.append((event_id, stream_id, message))
        if stream_id != GET_STREAM_KEY:
            if isinstance(message, JSONRPCResponse | JSONRPCError):
                self._unanswered.discard(stream_id)
            else:
                self._unanswered.add(stream_id)
        return str(event_id)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """The events of ``last_event_id``'s stream that came after it; None when that
        event is not (or no longer) kept."""
        try:
            after = int(last_event_id)
        except ValueError:
            return None
        stream = next((stream for event_id, stream, _ in self._events if event_id == after), None)
        if stream is None:
            return None
        for event_id, event_stream, message in list(self._events):
            if event_id > after and event_stream == stream and message is not None:
                await send_callback(EventMessage(message, str(event_id)))
        return stream

    @property
    def waiting(self) -> bool:
        """A request of this session has not been answered yet."""
        return bool(self._unanswered)


class EvictingSessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager with least-recently-used eviction of idle sessions, a
    per-session bounded event store, and an end hook (``on_end``) for what the client owned."""

    def __init__(self, app: Any, on_end: SessionEnded, *, max_sessions: int = MAX_SESSIONS,
                 idle_timeout: float = IDLE_TIMEOUT, events_per_session: int = EVENTS_PER_SESSION,
                 **settings: Any) -> None:
        super().__init__(app, session_idle_timeout=idle_timeout, max_sessions=max_sessions,
                         retry_interval=RETRY_MS, **settings)
        self._on_end = on_end
        self._events_per_session = events_per_session
        self._last_used: OrderedDict[str, float] = OrderedDict()  # least recently used first
        self._events: dict[str, SessionEvents] = {}
        self._ended: OrderedDict[str, str] = OrderedDict()  # session id -> why it ended

    async def _handle_stateful_request(self, scope: Scope, receive: Receive, send: Send) -> None:
        session_id = Request(scope).headers.get(MCP_SESSION_ID_HEADER)
        if session_id is not None and session_id in self._last_used:
            self._last_used[session_id] = time.monotonic()
            self._last_used.move_to_end(session_id)
        elif session_id is not None and session_id in self._ended:
            message = (f"Session not found: it ended ({self._ended[session_id]}); its debug session and heap were "
                       "closed. Send initialize without a session id to start a new session.")
            await _error(message, 404)(scope, receive, send)
            return
        elif session_id is None and self._full() and all(self._busy(sid) for sid in self._last_used):
            await _error(f"Too many open sessions: every one of the {self.max_sessions} sessions is busy with a "
                         "request; retry when one finishes", 503, INTERNAL_ERROR)(scope, receive, send)
            return
        await super()._handle_stateful_request(scope, receive, send)

    def _full(self) -> bool:
        return len(self._server_instances) >= (self.max_sessions or 0)

    def _admit_session(self, requestor: Any) -> StreamableHTTPServerTransport | None:
        """Under the creation lock: a place is made by evicting the least recently used
        idle session; None (a 503) only when every session is busy."""
        if self._full():
            victim = next((sid for sid in self._last_used if not self._busy(sid)), None)
            if victim is None:
                return None
            evicted = self._server_instances.pop(victim)  # its place is free from now on
            self._session_owners.pop(victim, None)
            self._forget(victim, f"evicted: idle while a new client needed its place, the server keeps at most "
                                 f"{self.max_sessions} sessions")
            assert self._task_group is not None
            self._task_group.start_soon(self._discard_session, victim, evicted)
        events = SessionEvents(self._events_per_session)
        self.event_store = events  # read by the base class for this one transport
        try:
            transport = super()._admit_session(requestor)
        finally:
            self.event_store = None
        if transport is not None and transport.mcp_session_id is not None:
            self._last_used[transport.mcp_session_id] = time.monotonic()
            self._events[transport.mcp_session_id] = events
        return transport

    def _busy(self, session_id: str) -> bool:
        transport = self._server_instances.get(session_id)
        in_flight = getattr(transport, "_requests_in_flight", 0)  # HTTP requests (and GET streams) being served
        events = self._events.get(session_id)
        return bool(in_flight) or (events is not None and events.waiting)

    def _forget(self, session_id: str, why: str) -> None:
        self._last_used.pop(session_id, None)
        self._events.pop(session_id, None)
        self._ended[session_id] = why
        while len(self._ended) > _ENDED_REMEMBERED:
            self._ended.popitem(last=False)

    async def _discard_session(self, session_id: str, transport: StreamableHTTPServerTransport) -> None:
        """However the session ends (DELETE, idle timeout, eviction, crash): the SDK's
        discard, then what its client owned is closed."""
        if session_id in self._last_used:
            why = "deleted by the client" if transport.is_terminated else f"idle for {self.session_idle_timeout:g} s"
            self._forget(session_id, why)
        await super()._discard_session(session_id, transport)
        with anyio.CancelScope(shield=True):
            await self._on_end(session_id)  # idempotent: a second discard of one session finds nothing


def _error(message: str, status: int, code: int = INVALID_REQUEST) -> Response:
    body = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))
    return Response(body.model_dump_json(by_alias=True, exclude_unset=True), status_code=status,
                    media_type="application/json")
