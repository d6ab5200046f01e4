"""What each MCP client owns on the server: Sessions (pyinspect.session.debug_session: a
debug session, its heap workspace, its recording), each named by a handle
(pyinspect.server.handles).

Why per client: over streamable HTTP several clients share one server; each must see only
what it opened. A 2026-07-28 request over HTTP has no MCP session: each opening tool called
without a handle mints a new Session and answers its handle; every other call names one.

A client of the handshake era (stdio, or a 2025-11-25 MCP session over HTTP) may leave the
handle out, as before handles: a call then acts on its *current* debug session (one Session,
made on its first call, that keeps its breakpoints across launches) or, for a heap tool, its
current heap: the one heap_attach or dump_open opened last. Each heap_attach or dump_open
without a handle opens a new heap beside the others, which stay open under the handles their
answers carried (bounded by the memory limit and the idle timeout); heap_close without a handle
closes the current heap, and the one opened before it (else the debug session's) is read again.
All of a client's heaps keep their snapshots in one book, so heap_diff with no ids still diffs
the last two snapshots whichever heap each was taken of. When its MCP session ends (DELETE,
idle timeout, eviction: pyinspect.server.http_sessions) everything it held is closed: a
launched debuggee terminated, an attached one detached, an opened heap or dump closed.

The call running is a context variable set by PyInspectServer around each tool call; anyio
copies it into the worker threads the tools run in (the _Call object itself is shared, so what
a tool resolved is seen by the server after it).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from pyinspect.errors import HandleRequiredError, InvalidParameterError, PyInspectError
from pyinspect.server.call_kinds import GET, NEW_HEAP, kind_of, opens
from pyinspect.server.handles import STATELESS, Handles, Kind
from pyinspect.server.settings import env_number
from pyinspect.session.debug_session import Session
from pyinspect.session.snapshot_book import SnapshotBook

__all__ = ["HEAP_MEMORY", "ClientSessions"]

log = logging.getLogger(__name__)


def _heap_memory() -> int:
    """Bytes the graphs of the heaps open by handle may hold together (a graph costs tens of
    bytes per object) before the least recently used idle one is closed: $PYINSPECT_HEAP_MEMORY_MB
    (a positive number), else 4 GiB."""
    megabytes = env_number("PYINSPECT_HEAP_MEMORY_MB", 4096.0, 0, 1e9, low_inclusive=False)
    return int(megabytes * 2**20)


HEAP_MEMORY = _heap_memory()

CLOSED_BY_CLIENT = "closed by the client"


@dataclass
class _Call:
    """One tool call: whose it is, the handle it passed, the handle it acted on."""

    client_id: str | None
    stateless: bool
    tool: str = ""
    handle: str | None = None
    used: str | None = None
    minted: bool = False

    @property
    def owner(self) -> str | None:
        return STATELESS if self.stateless else self.client_id


@dataclass
class _Client:
    """A handshake-era client's current things: the handles calls without one act on."""

    snapshots: SnapshotBook
    debug: list[str] = field(default_factory=list)
    heaps: list[str] = field(default_factory=list)
    """Heaps opened without a handle, the current one last."""

    def current(self) -> set[str]:
        return set(self.debug[-1:] + self.heaps[-1:])

    def forget(self, handle: str) -> None:
        for stack in (self.debug, self.heaps):
            if handle in stack:
                stack.remove(handle)


_call: ContextVar[_Call | None] = ContextVar("pyinspect_mcp_call", default=None)


def _running_call() -> _Call:
    """The tool call running (outside one, as on stdio before any: a handshake-era call of no client)."""
    return _call.get() or _Call(None, False)


class ClientSessions:
    """Every client's Sessions, by handle, and each handshake-era client's current ones."""

    def __init__(self, adapter: str = "pyinspect", heap_memory: int = HEAP_MEMORY) -> None:
        self._adapter = adapter
        self._heap_memory = heap_memory
        self._lock = threading.Lock()
        self._clients: dict[str | None, _Client] = {}
        self.handles = Handles()

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
        """The Session the running call acts on: its handle's, else (a handshake-era client) its
        current one, else (a 2026-07-28 opening call) a new one whose handle the answer carries."""
        call = _running_call()
        if call.used is not None:  # asked again within one call
            return self.handles.resolve(call.used, call.owner)
        if call.handle is not None:
            session = self.handles.resolve(call.handle, call.owner, hold=True)
            call.used = call.handle
            return session
        if not call.stateless:
            return self._current(call)
        kind = opens(call.tool)
        if kind is None:
            wanted = kind_of(call.tool)
            raise HandleRequiredError(
                f"{call.tool} needs handle: a 2026-07-28 request carries no session, so pass the {wanted} handle "
                f"that {GET[wanted]} answered you (their answers carry it as `handle`)")
        session = Session(adapter=self._adapter)
        call.used = self.handles.mint(session, kind, STATELESS)
        call.minted = True
        return session

    def _current(self, call: _Call) -> Session:
        """A handshake-era client's Session for a call without a handle (see the module's docstring)."""
        on_heap = kind_of(call.tool) == "heap" and (call.tool != "dump_create" or self._reads_process(call.client_id))
        with self._lock:
            client = self._client(call.client_id)
            fresh = call.tool in NEW_HEAP
            stack = client.heaps if fresh or (on_heap and client.heaps) else client.debug
            if fresh or not stack:
                session = Session(adapter=self._adapter, snapshots=client.snapshots)
                stack.append(self.handles.mint(session, "heap" if fresh else "debug session", call.client_id))
                call.used, call.minted = stack[-1], fresh
                return session
            handle = stack[-1]
        session = self.handles.resolve(handle, call.client_id, hold=True)
        call.used = handle
        return session

    def _client(self, client_id: str | None) -> _Client:
        """The handshake-era client's record, made on its first call (hold self._lock)."""
        return self._clients.setdefault(client_id, _Client(SnapshotBook()))

    def _reads_process(self, client_id: str | None) -> bool:
        """Whether the client's current heap is a live process (dump_create's default pid, as
        before heaps stood side by side: the heap_attach'ed process, else the debuggee)."""
        with self._lock:
            client = self._clients.get(client_id)
            top = client.heaps[-1] if client is not None and client.heaps else None
        if top is None:
            return False
        try:
            return self.handles.resolve(top, client_id).heaps.reader()[1].kind == "process"
        except PyInspectError:
            return False

    def beside(self) -> Session:
        """debug_launch/debug_attach with alongside: a handshake-era client's new debug session
        beside its current one, which stays as it is under its handle; the new one is current
        from now on (its handle in the answer). A 2026-07-28 call without a handle opens a new
        one anyway."""
        call = _running_call()
        if call.handle is not None:
            raise InvalidParameterError("alongside opens a new debug session: leave handle out (or pass the handle "
                                        "and no alongside to relaunch in that debug session)")
        if call.stateless or call.used is not None:
            return self.session()
        with self._lock:
            client = self._client(call.client_id)
            session = Session(adapter=self._adapter, snapshots=client.snapshots)
            client.debug.append(self.handles.mint(session, "debug session", call.client_id))
            call.used, call.minted = client.debug[-1], True
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
        self._keep_heaps_within(call.used)

    def _keep_heaps_within(self, keep: str) -> None:
        """While the open heaps' graphs hold more than the limit, close the least recently used
        idle handle that holds one (never ``keep``, the one just used, nor a client's current one)."""
        held = self.handles.by_last_use()
        total = sum(session.heaps.graph_bytes() for _, session, _ in held)
        if total <= self._heap_memory:
            return
        spared = self._current_handles() | {keep}
        for handle, session, idle in held:
            if total <= self._heap_memory:
                return
            size = session.heaps.graph_bytes()
            if handle in spared or not idle or size == 0:
                continue
            self._close(handle, f"evicted: the open heaps' graphs held {total / 2**20:.1f} MiB, more than the "
                                f"server's limit of {self._heap_memory / 2**20:.1f} MiB (PYINSPECT_HEAP_MEMORY_MB); "
                                "the least recently used idle heap is closed first")
            total -= size

    def _current_handles(self) -> set[str]:
        with self._lock:
            return {handle for client in self._clients.values() for handle in client.current()}

    def named(self, handle: str) -> Session:
        """Another Session the running call's client holds, by its handle (heap_diff across two heaps)."""
        call = _running_call()
        return self.handles.resolve(handle, call.owner)

    def close_heap(self) -> bool:
        """heap_close: close the heap the call reads. A heap handle (heap_attach, dump_open) that
        holds no debug session or recording ends with it; on a debug session's handle the heap
        opened beside its debuggee closes, and its debuggee is read again."""
        session = self.session()
        call = _running_call()
        handle = call.used
        closed = session.heaps.close()
        if handle is not None and self.handles.kind(handle) == "heap" and session.active_adapter is None \
                and not session.recordings.active:
            self._close(handle, "closed by heap_close")
        return closed

    def close_handle(self) -> tuple[Kind, str]:
        """handle_close: end what the handle names (its kind, and what ending it did)."""
        call = _running_call()
        if call.handle is None:
            raise InvalidParameterError("handle_close needs handle: the handle an opening tool answered you")
        session = self.session()
        kind = self.handles.kind(call.handle) or "debug session"
        ended = [what for what in (_ending_debuggee(session),
                                   "its recording stopped (the events not read)" if session.recordings.active else "",
                                   "its heap closed" if session.heaps.close() else "") if what]
        self._close(call.handle, CLOSED_BY_CLIENT)
        return kind, "; ".join(ended) or "it held nothing open"

    def end(self, client_id: str | None) -> bool:
        """Close what the client owned; False when it had nothing."""
        with self._lock:
            client = self._clients.pop(client_id, None)
        handles = self.handles.of_owner(client_id)
        for handle in handles:
            self._close(handle, "its MCP session ended")
        return client is not None or bool(handles)

    def expire_idle(self, seconds: float) -> int:
        """Close the handles with no call for ``seconds`` (never a client's current ones); how
        many were closed."""
        spared = self._current_handles()
        expired = [handle for handle in self.handles.idle(seconds) if handle not in spared]
        for handle in expired:
            self._close(handle, f"it expired (no call for {seconds:g} s)")
        return len(expired)

    def _close(self, handle: str, why: str) -> None:
        session = self.handles.end(handle, why)
        with self._lock:
            for client in self._clients.values():
                client.forget(handle)
        if session is not None:
            try:
                session.close()
            except Exception:
                log.exception("closing handle %s... failed", handle[:8])

    def end_all(self) -> None:
        for handle in self.handles.all():
            self._close(handle, "the server stopped")
        with self._lock:
            self._clients.clear()


def _ending_debuggee(session: Session) -> str:
    """What closing the session does to its debuggee, said before it is done."""
    view = session.debuggee.view()
    if session.active_adapter is None or view.state in ("not_started", "exited"):
        return ""
    if view.mode == "launch":
        return f"its launched program (pid {view.pid}) terminated"
    return f"detached from process {view.pid}, which keeps running"
