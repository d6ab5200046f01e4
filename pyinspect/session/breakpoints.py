"""Breakpoints as the session keeps them: pyinspect's own ids, surviving launches.

A breakpoint set before any session is pending; at every launch or attach the whole
table is sent file by file, and the adapter's answers (verified, bound line, its own
id) are folded back. A hit count is the adapter's to keep where it counts hits itself (DAP
`hitCondition`; ours does, and reports its counts on each stop): the debuggee then stops
only at the hits that count. netcoredbg reads no hitCondition, so under it every hit stops
and pyinspect counts (pyinspect.session.adapter_events).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyinspect.errors import InvalidParameterError, UnknownBreakpointError
from pyinspect.models.session import BreakpointInfo

if TYPE_CHECKING:
    from pyinspect.dap.client import DapClient

__all__ = ["EXCEPTION_FILTERS", "Breakpoint", "BreakpointTable", "adapter_counts_hits", "refused_condition", "send_all",
           "send_file", "send_functions"]

EXCEPTION_FILTERS = {"all": "all", "user_unhandled": "user-unhandled"}


@dataclass
class Breakpoint:
    """A line breakpoint (file, line) or a function breakpoint (function); a log point
    when log_message is set (it prints, through process_output, and never stops)."""

    id: int
    file: str | None
    line: int | None
    condition: str | None = None
    hit_count: int | None = None
    verified: bool = False
    hits: int = 0
    bound_line: int | None = None
    message: str | None = "pending until a session starts"
    adapter_id: int | None = None
    function: str | None = None
    log_message: str | None = None

    def info(self) -> BreakpointInfo:
        return BreakpointInfo(id=self.id, file=self.file, line=self.line, function=self.function,
                              condition=self.condition, hit_count=self.hit_count, log_message=self.log_message,
                              verified=self.verified, hits=self.hits, bound_line=self.bound_line, message=self.message)

    def request(self, hit_condition: bool) -> dict[str, Any]:
        """The DAP SourceBreakpoint or FunctionBreakpoint; with hit_condition (the adapter
        counts hits) the hit count goes as `hitCondition` ">= N": stop at the Nth hit and on."""
        entry: dict[str, Any] = {"name": self.function} if self.function else {"line": self.line}
        if self.condition:
            entry["condition"] = self.condition
        if hit_condition and self.hit_count is not None:
            entry["hitCondition"] = f">= {self.hit_count}"
        if self.log_message:
            entry["logMessage"] = self.log_message
        return entry


def normalize_file(file: str) -> str:
    return os.path.abspath(os.path.expanduser(file)) if os.path.exists(os.path.expanduser(file)) else file


class BreakpointTable:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next_id = 1
        self._items: dict[int, Breakpoint] = {}
        self.exception_filters: dict[str, str | None] = {}
        """filter name (all, user_unhandled) -> the exception type it is narrowed to, if any"""

    def add(self, file: str, line: int, condition: str | None, hit_count: int | None,
            log_message: str | None = None) -> Breakpoint:
        if not file.strip():
            raise InvalidParameterError("file must name a source file", file=file)
        if line < 1:
            raise InvalidParameterError(f"line must be 1 or more, got {line}", line=line)
        _check_hit_count(hit_count)
        if not os.path.isfile(os.path.expanduser(file)):
            raise InvalidParameterError(f"no such source file: {file} (give the full path of the .cs file)",
                                        file=file)
        return self._store(Breakpoint(0, normalize_file(file), line, condition or None, hit_count,
                                      log_message=log_message or None))

    def add_function(self, function: str, condition: str | None, hit_count: int | None,
                     log_message: str | None = None) -> Breakpoint:
        if not function.strip():
            raise InvalidParameterError("function must name a method (Method, Type.Method or Namespace.Type.Method)")
        _check_hit_count(hit_count)
        return self._store(Breakpoint(0, None, None, condition or None, hit_count, function=function.strip(),
                                      log_message=log_message or None))

    def _store(self, breakpoint: Breakpoint) -> Breakpoint:
        with self._lock:
            breakpoint.id = self._next_id
            self._items[breakpoint.id] = breakpoint
            self._next_id += 1
            return breakpoint

    def remove(self, breakpoint_id: int) -> Breakpoint:
        with self._lock:
            if breakpoint_id not in self._items:
                raise UnknownBreakpointError(f"no breakpoint with id {breakpoint_id}", id=breakpoint_id)
            return self._items.pop(breakpoint_id)

    def all(self) -> list[Breakpoint]:
        with self._lock:
            return list(self._items.values())

    def in_file(self, file: str) -> list[Breakpoint]:
        return [b for b in self.all() if b.file == file]

    def functions(self) -> list[Breakpoint]:
        return [b for b in self.all() if b.function is not None]

    def files(self) -> list[str]:
        return sorted({b.file for b in self.all() if b.file is not None})

    def new_session(self) -> None:
        """A debug session starts: nothing is bound yet, and hits count again from 0 (an
        adapter that counts hits counts them per session; so does the table under one that
        does not)."""
        self.unbind_all("not bound yet")
        for breakpoint in self.all():
            breakpoint.hits = 0

    def unbind_all(self, message: str = "pending until a session starts") -> None:
        for breakpoint in self.all():
            breakpoint.verified, breakpoint.adapter_id, breakpoint.bound_line = False, None, None
            breakpoint.message = message

    def apply_results(self, sent: list[Breakpoint], results: list[dict[str, Any]]) -> None:
        """Fold setBreakpoints' answers back, in the order the breakpoints were sent."""
        for breakpoint, result in zip(sent, results, strict=False):
            breakpoint.adapter_id = result.get("id") if isinstance(result.get("id"), int) else None
            breakpoint.verified = bool(result.get("verified"))
            breakpoint.bound_line = result.get("line") if breakpoint.verified else None
            breakpoint.message = None if breakpoint.verified else result.get("message") or "not bound yet"

    def apply_event(self, body: dict[str, Any]) -> None:
        """A `breakpoint` event: a pending breakpoint bound (or changed) later."""
        changed = body.get("breakpoint") or {}
        found = self.by_adapter_id(changed.get("id"))
        if found is not None and "verified" in changed:
            found.verified = bool(changed["verified"])
            found.bound_line = changed.get("line", found.bound_line)
            found.message = None if found.verified else changed.get("message")

    def by_adapter_id(self, adapter_id: Any) -> Breakpoint | None:
        if adapter_id is None:
            return None
        return next((b for b in self.all() if b.adapter_id == adapter_id), None)

    def at_location(self, file: str | None, line: int | None) -> list[Breakpoint]:
        if file is None or line is None:
            return []
        name = os.path.basename(file)
        return [b for b in self.all()
                if b.file is not None and os.path.basename(b.file) == name and line in (b.line, b.bound_line)]

    def set_exception_filter(self, filter_name: str, exception_type: str | None, clear: bool = False) -> None:
        """Add or replace one filter (the other stays), or clear it."""
        if filter_name not in EXCEPTION_FILTERS:
            raise InvalidParameterError(
                f"filter must be one of {', '.join(EXCEPTION_FILTERS)}, not {filter_name!r}",
                filter=filter_name)
        with self._lock:
            if clear:
                self.exception_filters.pop(filter_name, None)
            else:
                self.exception_filters[filter_name] = exception_type or None

    def exception_request(self) -> tuple[list[str], list[dict[str, Any]]]:
        with self._lock:
            chosen = dict(self.exception_filters)
        filters = [EXCEPTION_FILTERS[name] for name in chosen]
        options = [{"filterId": EXCEPTION_FILTERS[name], "condition": kind} for name, kind in chosen.items() if kind]
        return filters, options


def _check_hit_count(hit_count: int | None) -> None:
    if hit_count is not None and hit_count < 1:
        raise InvalidParameterError(f"hit_count must be 1 or more, got {hit_count}", hit_count=hit_count)


def refused_condition(breakpoint: Breakpoint) -> str | None:
    """The adapter's refusal of a breakpoint's condition (a syntax error, found by its C# parser
    when the breakpoint was sent), or None. The adapter answers such a breakpoint
    verified: false with a message that starts "condition "."""
    message = breakpoint.message or ""
    return message if breakpoint.condition and not breakpoint.verified and message.startswith("condition ") else None


def adapter_counts_hits(client: DapClient) -> bool:
    """Whether the adapter keeps hit counts itself (it said so at initialize)."""
    return bool(client.capabilities.get("supportsHitConditionalBreakpoints"))


def send_file(client: DapClient, table: BreakpointTable, file: str) -> None:
    """A file's whole set of line breakpoints (DAP replaces a file's set at once)."""
    sent = table.in_file(file)
    counts = adapter_counts_hits(client)
    table.apply_results(sent, client.set_breakpoints(file, [b.request(counts) for b in sent]))


def send_functions(client: DapClient, table: BreakpointTable) -> None:
    sent = table.functions()
    counts = adapter_counts_hits(client)
    table.apply_results(sent, client.set_function_breakpoints([b.request(counts) for b in sent]))


def send_all(client: DapClient, table: BreakpointTable) -> None:
    """Everything the table holds, as a new adapter's configuration: files, functions, filters."""
    for file in table.files():
        send_file(client, table, file)
    if table.functions():
        send_functions(client, table)
    filters, options = table.exception_request()
    if filters:
        client.set_exception_breakpoints(filters, options)
