"""AdapterEvents: how the adapter's events move the debuggee's state.

One handler per adapter process, given the pieces it may change (the DebuggeeState, the
breakpoint table, the output buffer) and the client it may ask; it never reaches into
the Session. When the session leaves that adapter it retires the handler, and late
events from it are ignored.

Hit counts: an adapter that counts hits (ours) stops only at the hits that count and
reports each breakpoint's count on the stop, which is taken as is. Under one that does not
(netcoredbg) every hit stops and is counted here; anything that needs a request then
(continuing past a breakpoint whose hit count is not reached yet, finding which breakpoint
was hit when the adapter does not say) runs on a short-lived worker thread, since listeners
must not block the DAP reader thread.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from pyinspect.errors import PyInspectError
from pyinspect.session.breakpoints import adapter_counts_hits
from pyinspect.session.state import DebuggeeState, Stop

if TYPE_CHECKING:
    from pyinspect.dap.client import DapClient
    from pyinspect.session.breakpoints import Breakpoint, BreakpointTable
    from pyinspect.session.program_output import OutputBuffer

__all__ = ["AdapterEvents", "adapter_death_message"]

ADAPTER_CLOSED = "pyinspect.adapterClosed"


def adapter_death_message(cause: str, mode: str | None, pid: int | None) -> str:
    """What becomes of the debuggee when its adapter dies: the watchdog ends a launched one
    and lets go of an attached one (pyinspect.session.watchdog)."""
    message = f"the debug adapter ended unexpectedly: {cause}"
    if mode == "launch":
        return message + "; the launched debuggee is terminated"
    return message + f"; process {pid} is released by the watchdog and keeps running"


class AdapterEvents:
    def __init__(self, state: DebuggeeState, breakpoints: BreakpointTable, output: OutputBuffer,
                 client: DapClient) -> None:
        self._state = state
        self._breakpoints = breakpoints
        self._output = output
        self._client = client
        self._retired = False

    def retire(self) -> None:
        """The session left this adapter: its events no longer count."""
        self._retired = True

    def __call__(self, event: dict[str, Any]) -> None:
        if self._retired:
            return
        name, body = event.get("event"), event.get("body") or {}
        if name == "stopped":
            self._on_stopped(body)
        elif name == "continued":
            pass  # the session marks running itself before each resume; this event may come late
        elif name == "output":
            self._output.add(body.get("category"), str(body.get("output") or ""))
        elif name == "breakpoint":
            self._breakpoints.apply_event(body)
        elif name == "process" and isinstance(body.get("systemProcessId"), int):
            self._state.learn_pid(body["systemProcessId"])
        elif name in ("exited", "terminated", ADAPTER_CLOSED):
            self._on_end(name, body)

    def _on_end(self, name: str, body: dict[str, Any]) -> None:
        exit_code = body["exitCode"] if name == "exited" and isinstance(body.get("exitCode"), int) else None
        message = None
        if name == ADAPTER_CLOSED:
            view = self._state.view()
            message = adapter_death_message(str(body.get("message")), view.mode, view.pid)
        self._state.end(exit_code, message)

    def _on_stopped(self, body: dict[str, Any]) -> None:
        reason = str(body.get("reason") or "unknown")
        adapter_ids = [i for i in body.get("hitBreakpointIds") or [] if isinstance(i, int)]
        hit = [b for b in map(self._breakpoints.by_adapter_id, adapter_ids) if b is not None]
        if reason == "breakpoint" and adapter_counts_hits(self._client):
            self._take_hit_counts(adapter_ids, body.get("hitCounts"))
            self._pause(body, [b.id for b in hit])
            return
        if reason == "breakpoint" and not adapter_ids and any(b.hit_count for b in self._breakpoints.all()):
            self._in_background(self._decide_by_location, body)
            return
        if reason == "breakpoint" and hit:
            self._count_and_maybe_skip(body, hit)
            return
        self._pause(body, [b.id for b in hit])

    def _take_hit_counts(self, adapter_ids: list[int], counts: Any) -> None:
        """The adapter's own count of each breakpoint it stopped at (parallel to the ids)."""
        if not isinstance(counts, list):
            return
        for adapter_id, count in zip(adapter_ids, counts, strict=False):
            breakpoint = self._breakpoints.by_adapter_id(adapter_id)
            if breakpoint is not None and isinstance(count, int):
                breakpoint.hits = count

    def _count_and_maybe_skip(self, body: dict[str, Any], hit: list[Breakpoint]) -> None:
        for breakpoint in hit:
            breakpoint.hits += 1
        if all(b.hit_count is not None and b.hits < b.hit_count for b in hit):
            self._in_background(self._skip_stop, body)
            return
        self._pause(body, [b.id for b in hit])

    def _pause(self, body: dict[str, Any], breakpoint_ids: list[int]) -> None:
        self._state.pause_at(stop_of(body, breakpoint_ids))

    def _skip_stop(self, body: dict[str, Any]) -> None:
        """A breakpoint whose hit count is not reached: resume as if it never stopped."""
        try:
            self._client.continue_(int(body.get("threadId") or 0))
        except PyInspectError:
            if not self._retired:
                self._pause(body, [])

    def _decide_by_location(self, body: dict[str, Any]) -> None:
        """The adapter did not name the breakpoint: match the top frame's file and line."""
        try:
            frames = self._client.stack_trace(int(body.get("threadId") or 0), 0, 1).get("stackFrames") or []
        except PyInspectError:
            frames = []
        top = frames[0] if frames else {}
        hit = self._breakpoints.at_location((top.get("source") or {}).get("path"), top.get("line"))
        if hit:
            self._count_and_maybe_skip(body, hit)
        else:
            self._pause(body, [])

    @staticmethod
    def _in_background(work: Any, body: dict[str, Any]) -> None:
        threading.Thread(target=work, args=(body,), name="pyinspect-hit-count", daemon=True).start()


def stop_of(body: dict[str, Any], breakpoint_ids: list[int]) -> Stop:
    """The Stop a DAP `stopped` event body describes."""
    return Stop(reason=str(body.get("reason") or "unknown"), thread_id=int(body.get("threadId") or 0),
                description=body.get("description") or body.get("text"), breakpoint_ids=breakpoint_ids)
