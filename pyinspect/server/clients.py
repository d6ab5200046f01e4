"""What each MCP client owns on the server: its debug Session and what the tool modules
keep beside it (the heap workspace: a heap opened by heap_attach or dump_open, its
graph and snapshots).

Why per client: over streamable HTTP several clients share one server; each must see
only its own debug session and heap, and when its MCP session ends (DELETE, idle
timeout, eviction: pyinspect.server.http_sessions) what it owned is closed with it: a
launched debuggee is terminated, an attached one detached, an opened heap or dump
closed. On stdio (and in memory) there is one client, whose MCP session has no id.

The client of the running request is a context variable set by PyInspectServer around
each tool call; anyio copies it into the worker threads the tools run in.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from pyinspect.session.debug_session import Session

__all__ = ["ClientState", "ClientStates"]

log = logging.getLogger(__name__)
T = TypeVar("T")
_client: ContextVar[str | None] = ContextVar("pyinspect_mcp_client", default=None)


@dataclass
class ClientState:
    """One client's debug session and what tool modules keep beside it (name -> (thing, close))."""

    session: Session
    kept: dict[str, tuple[Any, Callable[[Any], object]]] = field(default_factory=dict)

    def close(self) -> None:
        """Close what was kept beside the session first (it may read the session), then the session."""
        for name, (thing, close) in reversed(list(self.kept.items())):
            try:
                close(thing)
            except Exception:
                log.exception("closing %s failed", name)
        self.session.close()


class ClientStates:
    """Every client's state, made on the client's first tool call."""

    def __init__(self, adapter: str = "pyinspect", session: Session | None = None) -> None:
        self._adapter = adapter
        self._lock = threading.Lock()
        self._states: dict[str | None, ClientState] = {}
        if session is not None:
            self._states[None] = ClientState(session)

    @contextmanager
    def serving(self, client_id: str | None) -> Iterator[None]:
        """Tool calls inside this block act for ``client_id`` (an MCP session id, None on stdio)."""
        token = _client.set(client_id)
        try:
            yield
        finally:
            _client.reset(token)

    def current(self) -> ClientState:
        client_id = _client.get()
        with self._lock:
            state = self._states.get(client_id)
            if state is None:
                state = self._states[client_id] = ClientState(Session(adapter=self._adapter))
            return state

    def session(self) -> Session:
        """The debug session of the client whose request is running."""
        return self.current().session

    def kept(self, name: str, make: Callable[[Session], T], close: Callable[[T], object]) -> T:
        """What the running request's client keeps under ``name``, made from its session
        the first time; ``close`` runs when the client's MCP session ends."""
        state = self.current()
        with self._lock:
            if name not in state.kept:
                state.kept[name] = (make(state.session), cast(Callable[[Any], object], close))
            return cast(T, state.kept[name][0])

    def holds(self, client_id: str | None) -> bool:
        """Whether this client has made any state (a tool call) yet."""
        with self._lock:
            return client_id in self._states

    def end(self, client_id: str | None) -> bool:
        """Close what the client owned; False when it had nothing."""
        with self._lock:
            state = self._states.pop(client_id, None)
        if state is None:
            return False
        state.close()
        return True

    def end_all(self) -> None:
        with self._lock:
            states, self._states = list(self._states.values()), {}
        for state in states:
            state.close()
