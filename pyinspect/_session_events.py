"""How adapter events move a Session's state, on the DAP reader thread.

Listeners must not block the reader: anything that needs a request (continuing past a
breakpoint whose hit count is not reached yet, finding which breakpoint was hit when
the adapter does not say) runs on a short-lived worker thread.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psutil

from pyinspect.errors import PyInspectError

if TYPE_CHECKING:
    from pyinspect.breakpoints import Breakpoint
    from pyinspect.dap.adapter import AdapterProcess
    from pyinspect.session import Session

__all__ = ["Stop", "ensure_dead", "find_launched_pid", "on_event"]


@dataclass(frozen=True)
class Stop:
    reason: str
    thread_id: int
    description: str | None = None
    breakpoint_ids: list[int] = field(default_factory=list)


def on_event(session: Session, process: AdapterProcess, event: dict[str, Any]) -> None:
    if session._adapter is not process:  # an event from an adapter we already left
        return
    name, body = event.get("event"), event.get("body") or {}
    if name == "stopped":
        _on_stopped(session, process, body)
    elif name == "continued":
        pass  # the session marks running itself before each resume; this event may come late
    elif name == "output":
        session.output.add(body.get("category"), str(body.get("output") or ""))
    elif name == "breakpoint":
        session.breakpoints.apply_event(body)
    elif name == "process" and isinstance(body.get("systemProcessId"), int):
        with session.lock:
            session.pid = body["systemProcessId"]
    elif name in ("exited", "terminated", "pyinspect.adapterClosed"):
        _on_end(session, name, body)


def _on_end(session: Session, name: str, body: dict[str, Any]) -> None:
    with session.changed:
        if name == "exited" and isinstance(body.get("exitCode"), int):
            session.exit_code = body["exitCode"]
        if session.state in ("running", "paused"):
            if name == "pyinspect.adapterClosed":
                session.end_message = _adapter_death_message(session, str(body.get("message")))
            session.state, session.stop = "exited", None
            session.epoch += 1
        session.changed.notify_all()


def _adapter_death_message(session: Session, cause: str) -> str:
    """What becomes of the debuggee: the watchdog ends a launched one and lets go of an
    attached one (pyinspect.watchdog)."""
    message = f"the debug adapter ended unexpectedly: {cause}"
    if session.mode == "launch":
        return message + "; the launched debuggee is terminated"
    return message + f"; process {session.pid} is released by the watchdog and keeps running"


def _on_stopped(session: Session, process: AdapterProcess, body: dict[str, Any]) -> None:
    reason = str(body.get("reason") or "unknown")
    int(body.get("threadId") or 0)
    adapter_ids = [i for i in body.get("hitBreakpointIds") or [] if isinstance(i, int)]
    hit = [b for b in map(session.breakpoints.by_adapter_id, adapter_ids) if b is not None]
    if reason == "breakpoint" and not adapter_ids and any(b.hit_count for b in session.breakpoints.all()):
        threading.Thread(target=_decide_by_location, args=(session, process, body),
                         name="pyinspect-hit-count", daemon=True).start()
        return
    if reason == "breakpoint" and hit:
        _count_and_maybe_skip(session, process, body, hit)
        return
    _mark_paused(session, body, [b.id for b in hit])


def _count_and_maybe_skip(session: Session, process: AdapterProcess, body: dict[str, Any],
                          hit: list[Breakpoint]) -> None:
    for breakpoint in hit:
        breakpoint.hits += 1
    if all(b.hit_count is not None and b.hits < b.hit_count for b in hit):
        threading.Thread(target=_skip_stop, args=(session, process, body), name="pyinspect-hit-count",
                         daemon=True).start()
        return
    _mark_paused(session, body, [b.id for b in hit])


def _mark_paused(session: Session, body: dict[str, Any], breakpoint_ids: list[int]) -> None:
    stop = Stop(reason=str(body.get("reason") or "unknown"), thread_id=int(body.get("threadId") or 0),
                description=body.get("description") or body.get("text"), breakpoint_ids=breakpoint_ids)
    with session.changed:
        session.state, session.stop = "paused", stop
        session.epoch += 1
        session.changed.notify_all()


def _skip_stop(session: Session, process: AdapterProcess, body: dict[str, Any]) -> None:
    """A breakpoint whose hit count is not reached: resume as if it never stopped."""
    try:
        process.client.continue_(int(body.get("threadId") or 0))
    except PyInspectError:
        if session._adapter is process:
            _mark_paused(session, body, [])


def _decide_by_location(session: Session, process: AdapterProcess, body: dict[str, Any]) -> None:
    """The adapter did not name the breakpoint: match the top frame's file and line."""
    try:
        frames = process.client.stack_trace(int(body.get("threadId") or 0), 0, 1).get("stackFrames") or []
    except PyInspectError:
        frames = []
    top = frames[0] if frames else {}
    hit = session.breakpoints.at_location((top.get("source") or {}).get("path"), top.get("line"))
    if hit:
        _count_and_maybe_skip(session, process, body, hit)
    else:
        _mark_paused(session, body, [])


def find_launched_pid(session: Session) -> int | None:
    """The launched debuggee's pid when the adapter sent no `process` event: the adapter's
    deepest descendant naming the program (a shell that waits for it names it too)."""
    adapter, program = session._adapter, session.program
    if adapter is None or program is None:
        return None
    try:
        children = psutil.Process(adapter.proc.pid).children(recursive=True)
    except psutil.Error:
        return None
    name = os.path.basename(program)
    for child in reversed(children):
        try:
            if any(name in part for part in child.cmdline()):
                with session.lock:
                    session.pid = child.pid
                return child.pid
        except psutil.Error:
            continue
    return None


def ensure_dead(pid: int, timeout: float = 5.0) -> None:
    """After a terminating disconnect: the debuggee must be gone; kill it if it lingers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return
        except psutil.NoSuchProcess:
            return
        time.sleep(0.05)
    try:
        psutil.Process(pid).kill()
    except psutil.Error:
        pass
