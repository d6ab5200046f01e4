"""Handles: what a client holds across tool calls, named by a token the server mints.

A handle names one Session (pyinspect.session.debug_session: a debug session, its heap
workspace, its recording): the tool that opened it (debug_launch, debug_attach, heap_attach,
dump_open, trace_start, breakpoint_set...) answers it, and every tool that acts on one takes it
as ``handle``. A handle is 192 random bits (``secrets``), naming nothing of the process.

Who must pass one: a 2026-07-28 request over HTTP carries no MCP session, so it names its state
by handle alone; without one, an opening tool mints a new Session and any other tool is
refused (HANDLE_REQUIRED, saying which handle and where to get it). On stdio and in a
2025-11-25 MCP session a call without a handle means that client's current debug session or
heap (pyinspect.server.clients), as before handles; its opening tools answer handles too.

Lifetime: a handle ends when its client closes it (handle_close), after ``idle_timeout``
seconds with no call (never a handshake-era client's current ones: they end with its MCP
session or the server), or when the open heaps' graphs need its memory. However it ends, its
Session is closed (a launched debuggee terminated, an attached one detached, a heap closed, a
recording stopped) and the handle answers HANDLE_CLOSED naming why; a handle never minted
(forged, another server's, another client's) answers HANDLE_UNKNOWN.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from pyinspect.errors import HandleClosedError, HandleUnknownError
from pyinspect.session.debug_session import Session

__all__ = ["HANDLE_BYTES", "STATELESS", "Handles", "Kind"]

HANDLE_BYTES = 24
"""192 random bits: a handle cannot be guessed."""
STATELESS = "stateless"
"""The owner of handles minted for 2026-07-28 requests (the handle is their only credential)."""
_REMEMBERED = 1000
Kind = Literal["debug session", "heap", "recording"]


@dataclass
class _Held:
    session: Session
    kind: Kind
    owner: str | None
    last_used: float
    busy: int = 0


class Handles:
    """Thread-safe: tools resolve handles from worker threads, the sweeper ends idle ones."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, _Held] = {}
        self._ended: OrderedDict[str, str] = OrderedDict()

    def mint(self, session: Session, kind: Kind, owner: str | None) -> str:
        """A new handle for session, held by the call that minted it (release it after)."""
        handle = secrets.token_urlsafe(HANDLE_BYTES)
        with self._lock:
            self._held[handle] = _Held(session, kind, owner, time.monotonic(), busy=1)
        return handle

    def resolve(self, handle: str, owner: str | None, hold: bool = False) -> Session:
        """The Session a handle names, for the client ``owner``; its idle clock restarts, and
        with hold it is not idle until release()."""
        with self._lock:
            held = self._held.get(handle)
            if held is not None and held.owner == owner:
                held.last_used = time.monotonic()
                held.busy += hold
                return held.session
            why = self._ended.get(handle)
        if why is not None and held is None:
            raise HandleClosedError(f"handle {handle[:12]}... is closed: {why}; open a new one", handle=handle[:12])
        raise HandleUnknownError(f"no handle {handle[:12]!r}... was given to this client: pass a handle this "
                                 "server answered you (debug_launch, debug_attach, heap_attach, dump_open, "
                                 "trace_start answer one)")

    def release(self, handle: str) -> None:
        """A call that held the handle ended: its idle clock starts now."""
        with self._lock:
            held = self._held.get(handle)
            if held is not None:
                held.busy = max(0, held.busy - 1)
                held.last_used = time.monotonic()

    def end(self, handle: str, why: str) -> Session | None:
        """Forget a handle (it answers HANDLE_CLOSED with why from now on); the caller closes
        the Session it named."""
        with self._lock:
            held = self._held.pop(handle, None)
            if held is None:
                return None
            self._ended[handle] = why
            while len(self._ended) > _REMEMBERED:
                self._ended.popitem(last=False)
            return held.session

    def of_owner(self, owner: str | None) -> list[str]:
        with self._lock:
            return [h for h, held in self._held.items() if held.owner == owner]

    def kind(self, handle: str) -> Kind | None:
        with self._lock:
            held = self._held.get(handle)
            return held.kind if held is not None else None

    def idle(self, seconds: float) -> list[str]:
        """The handles with no call in flight, and none for ``seconds``."""
        now = time.monotonic()
        with self._lock:
            return [h for h, held in self._held.items() if not held.busy and now - held.last_used >= seconds]

    def by_last_use(self) -> list[tuple[str, Session, bool]]:
        """Every handle, least recently used first: (handle, session, idle)."""
        with self._lock:
            held = sorted(self._held.items(), key=lambda p: p[1].last_used)
            return [(h, x.session, not x.busy) for h, x in held]

    def all(self) -> list[str]:
        with self._lock:
            return list(self._held)
