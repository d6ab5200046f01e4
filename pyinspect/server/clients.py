"""What each MCP client owns on the server: one Session (its debug session, its heap
workspace: a heap opened by heap_attach or dump_open, its graph and snapshots; its
recording).

Why per client: over streamable HTTP several clients share one server; each must see
only its own debug session and heap, and when its MCP session ends (DELETE, idle
timeout, eviction: pyinspect.server.http_sessions) what it owned is closed with it: a
launched debuggee is terminated, an attached one detached, an opened heap or dump
closed. On stdio (and in memory) there is one client, whose MCP session has no id.

The client of the running request is a context variable set by PyInspectServer around
each tool call; anyio copies it into the worker threads the tools run in.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pyinspect.session.debug_session import Session

__all__ = ["ClientSessions"]

_client: ContextVar[str | None] = ContextVar("pyinspect_mcp_client", default=None)


class ClientSessions:
    """Every client's Session, made on the client's first tool call."""

    def __init__(self, adapter: str = "pyinspect", session: Session | None = None) -> None:
        self._adapter = adapter
        self._lock = threading.Lock()
        self._sessions: dict[str | None, Session] = {}
        if session is not None:
            self._sessions[None] = session

    @contextmanager
    def serving(self, client_id: str | None) -> Iterator[None]:
        """Tool calls inside this block act for ``client_id`` (an MCP session id, None on stdio)."""
        token = _client.set(client_id)
        try:
            yield
        finally:
            _client.reset(token)

    def session(self) -> Session:
        """The Session of the client whose request is running."""
        client_id = _client.get()
        with self._lock:
            session = self._sessions.get(client_id)
            if session is None:
                session = self._sessions[client_id] = Session(adapter=self._adapter)
            return session

    def holds(self, client_id: str | None) -> bool:
        """Whether this client has made any state (a tool call) yet."""
        with self._lock:
            return client_id in self._sessions

    def end(self, client_id: str | None) -> bool:
        """Close what the client owned; False when it had nothing."""
        with self._lock:
            session = self._sessions.pop(client_id, None)
        if session is None:
            return False
        session.close()
        return True

    def end_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            session.close()
