"""What each MCP client owns on the server: Sessions (pyinspect.session.debug_session: a
debug session, its heap workspace, its recording), named by handles (pyinspect.server.handles).

Why per client: over streamable HTTP several clients share one server; each must see only
what it opened. A client of the handshake era (stdio, or a 2025-11-25 MCP session over HTTP)
has one Session, made on its first tool call and reached without a handle, as before handles;
when its MCP session ends (DELETE, idle timeout, eviction: pyinspect.server.http_sessions) the
Session is closed with it: a launched debuggee is terminated, an attached one detached, an
opened heap or dump closed. A 2026-07-28 request over HTTP has no MCP session: each opening
tool called without a handle mints a new Session and answers its handle; every other call
names one, and a handle idle for the server's idle timeout is closed.

The call running is a context variable set by PyInspectServer around each tool call; anyio
copies it into the worker threads the tools run in (the _Call object itself is shared, so what
a tool resolved is seen by the server after it).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from pyinspect.errors import HandleRequiredError
from pyinspect.server.handles import STATELESS, Handles, Kind
from pyinspect.session.debug_session import Session

__all__ = ["HEAP_MEMORY", "ClientSessions", "kind_of", "opens"]

log = logging.getLogger(__name__)


def _heap_memory() -> int:
    """Bytes the graphs of the heaps open by handle may hold together (a graph costs tens of
    bytes per object) before the least recently used idle one is closed: $PYINSPECT_HEAP_MEMORY_MB
    (a positive number), else 4 GiB."""
    given = os.environ.get("PYINSPECT_HEAP_MEMORY_MB", "")
    try:
        megabytes = float(given) if given.strip() else 4096.0
    except ValueError:
        megabytes = 0.0
    if not 0 < megabytes < 1e9:
        log.warning("PYINSPECT_HEAP_MEMORY_MB=%r is no positive number: the limit stays 4096 MiB", given[:40])
        megabytes = 4096.0
    return int(megabytes * 2**20)


HEAP_MEMORY = _heap_memory()

OPENS: dict[str, Kind] = {
    "debug_launch": "debug session", "debug_attach": "debug session", "breakpoint_set": "debug session",
    "breakpoint_set_exception": "debug session", "heap_attach": "heap", "dump_open": "heap", "dump_create": "heap",
    "trace_start": "recording",
}
"""The tools that, called without a handle in a 2026-07-28 request, open a new Session."""
_GET = {"debug session": "debug_launch or debug_attach (or breakpoint_set before them)",
        "heap": "heap_attach or dump_open, or a paused debug session's handle",
        "recording": "trace_start"}


def opens(tool: str) -> Kind | None:
    return OPENS.get(tool)


def kind_of(tool: str) -> Kind:
    """The kind of handle a tool acts on (for the message that asks for one)."""
    if tool in OPENS:
        return OPENS[tool]
    if tool.startswith(("heap_", "dump_")) or tool == "diagnose":
        return "heap"
    return "recording" if tool.startswith("trace_") else "debug session"


@dataclass
class _Call:
    """One tool call: whose it is, the handle it passed, the handle it acted on."""

    client_id: str | None
    stateless: bool
    tool: str = ""
    handle: str | None = None
    used: str | None = None
    minted: bool = False


_call: ContextVar[_Call | None] = ContextVar("pyinspect_mcp_call", default=None)


class ClientSessions:
    """Every client's Sessions, by client (the handshake era) and by handle."""

    def __init__(self, adapter: str = "pyinspect", session: Session | None = None,
                 heap_memory: int = HEAP_MEMORY) -> None:
        self._adapter = adapter
        self._heap_memory = heap_memory
        self._lock = threading.Lock()
        self._sessions: dict[str | None, Session] = {}
        self.handles = Handles()
        if session is not None:
            self._sessions[None] = session

    @contextmanager
    def serving(self, client_id: str | None, *, stateless: bool = False, tool: str = "",
                handle: str | None = None) -> Iterator[_Call]:
        """Tool calls inside this block act for ``client_id`` (an MCP session id, None on stdio
        and for a 2026-07-28 request, which is ``stateless``) on ``handle``, if given."""
        call = _Call(client_id, stateless, tool, handle)
        token = _call.set(call)
        try:
            yield call
        finally:
            _call.reset(token)

    def session(self) -> Session:
        """The Session the running call acts on: its handle's, else its client's one, else (a
        2026-07-28 opening call) a new one whose handle the answer carries."""
        call = _call.get() or _Call(None, False)
        owner = STATELESS if call.stateless else call.client_id
        if call.handle is not None:
            session = self.handles.resolve(call.handle, owner, hold=call.used is None)
            call.used = call.handle
            return session
        if not call.stateless:
            with self._lock:
                own = self._sessions.get(call.client_id)
                if own is None:
                    own = self._sessions[call.client_id] = Session(adapter=self._adapter)
                return own
        kind = opens(call.tool)
        if kind is None:
            wanted = kind_of(call.tool)
            raise HandleRequiredError(
                f"{call.tool} needs handle: a 2026-07-28 request carries no session, so pass the {wanted} handle "
                f"that {_GET[wanted]} answered you (their answers carry it as `handle`)")
        session = Session(adapter=self._adapter)
        call.handle = call.used = self.handles.mint(session, kind, STATELESS)
        call.minted = True
        return session

    def release(self, call: _Call, failed: bool) -> None:
        """The call ended: the handle it acted on starts its idle clock; one it minted for an
        opening that failed is closed (its answer was an error, so nobody holds it)."""
        if call.used is None:
            return
        if call.minted and failed:
            self._close(call.used, "the call that opened it failed")
            return
        self.handles.release(call.used)
        if call.stateless:
            self._keep_heaps_within(call.used)

    def _keep_heaps_within(self, keep: str) -> None:
        """While the open heaps' graphs hold more than the limit, close the least recently used
        idle handle that holds one (never ``keep``, the one just used)."""
        held = self.handles.by_last_use(STATELESS)
        total = sum(session.heaps.graph_bytes() for _, session, _ in held)
        for handle, session, idle in held:
            if total <= self._heap_memory:
                return
            size = session.heaps.graph_bytes()
            if handle == keep or not idle or size == 0:
                continue
            self._close(handle, f"evicted: the open heaps' graphs held {total / 2**20:.1f} MiB, more than the "
                                f"server's limit of {self._heap_memory / 2**20:.1f} MiB (PYINSPECT_HEAP_MEMORY_MB); "
                                "the least recently used idle heap is closed first")
            total -= size

    def named(self, handle: str) -> Session:
        """Another Session the running call's client holds, by its handle (heap_diff across two heaps)."""
        call = _call.get() or _Call(None, False)
        return self.handles.resolve(handle, STATELESS if call.stateless else call.client_id)

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

    def expire_idle(self, seconds: float) -> int:
        """Close the 2026-07-28 handles with no call for ``seconds``; how many were closed."""
        expired = self.handles.idle(STATELESS, seconds)
        for handle in expired:
            self._close(handle, f"it expired (no call for {seconds:g} s)")
        return len(expired)

    def _close(self, handle: str, why: str) -> None:
        session = self.handles.end(handle, why)
        if session is not None:
            try:
                session.close()
            except Exception:
                log.exception("closing handle %s... failed", handle[:8])

    def end_all(self) -> None:
        for handle in self.handles.all():
            self._close(handle, "the server stopped")
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            session.close()
