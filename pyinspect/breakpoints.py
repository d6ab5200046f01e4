"""Breakpoints as the session keeps them: pyinspect's own ids, surviving launches.

A breakpoint set before any session is pending; at every launch or attach the whole
table is sent file by file, and the adapter's answers (verified, bound line, its own
id) are folded back. Hit counts are counted here, from the stops, because netcoredbg
cannot count them.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any

from pyinspect.errors import InvalidParameterError, UnknownBreakpointError
from pyinspect.models.session import BreakpointInfo

__all__ = ["EXCEPTION_FILTERS", "Breakpoint", "BreakpointTable"]

EXCEPTION_FILTERS = {"all": "all", "user_unhandled": "user-unhandled"}


@dataclass
class Breakpoint:
    id: int
    file: str
    line: int
    condition: str | None = None
    hit_count: int | None = None
    verified: bool = False
    hits: int = 0
    bound_line: int | None = None
    message: str | None = "pending until a session starts"
    adapter_id: int | None = None

    def info(self) -> BreakpointInfo:
        return BreakpointInfo(id=self.id, file=self.file, line=self.line, condition=self.condition,
                              hit_count=self.hit_count, verified=self.verified, hits=self.hits,
                              bound_line=self.bound_line, message=self.message)

    def request(self) -> dict[str, Any]:
        """The DAP SourceBreakpoint; hit counts stay client-side."""
        entry: dict[str, Any] = {"line": self.line}
        if self.condition:
            entry["condition"] = self.condition
        return entry


def normalize_file(file: str) -> str:
    return os.path.abspath(os.path.expanduser(file)) if os.path.exists(os.path.expanduser(file)) else file


class BreakpointTable:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next_id = 1
        self._items: dict[int, Breakpoint] = {}
        self.exception_filter: str | None = None
        self.exception_type: str | None = None

    def add(self, file: str, line: int, condition: str | None, hit_count: int | None) -> Breakpoint:
        if not file.strip():
            raise InvalidParameterError("file must name a source file", file=file)
        if line < 1:
            raise InvalidParameterError(f"line must be 1 or more, got {line}", line=line)
        if hit_count is not None and hit_count < 1:
            raise InvalidParameterError(f"hit_count must be 1 or more, got {hit_count}", hit_count=hit_count)
        with self._lock:
            breakpoint = Breakpoint(self._next_id, normalize_file(file), line, condition or None, hit_count)
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

    def files(self) -> list[str]:
        return sorted({b.file for b in self.all()})

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
                if os.path.basename(b.file) == name and line in (b.line, b.bound_line)]

    def set_exception_filter(self, filter_name: str, exception_type: str | None) -> None:
        if filter_name not in EXCEPTION_FILTERS:
            raise InvalidParameterError(
                f"filter must be one of {', '.join(EXCEPTION_FILTERS)}, not {filter_name!r}",
                filter=filter_name)
        self.exception_filter, self.exception_type = filter_name, exception_type or None

    def exception_request(self) -> tuple[list[str], list[dict[str, Any]]]:
        if self.exception_filter is None:
            return [], []
        filter_id = EXCEPTION_FILTERS[self.exception_filter]
        options = [{"filterId": filter_id, "condition": self.exception_type}] if self.exception_type else []
        return [filter_id], options
