"""BreakpointControl: changes to the breakpoint table, sent at once to a live adapter.

The table outlives sessions; when no session is live a change waits in it and is sent
with everything else at the next launch or attach (pyinspect.session.breakpoints.send_all).
"""

from __future__ import annotations

from collections.abc import Callable

from pyinspect.dap.client import DapClient
from pyinspect.errors import InvalidParameterError
from pyinspect.session.breakpoints import (
    Breakpoint,
    BreakpointTable,
    refused_condition,
    send_file,
    send_functions,
)

__all__ = ["BreakpointControl"]


class BreakpointControl:
    def __init__(self, table: BreakpointTable, live_client: Callable[[], DapClient | None]) -> None:
        self._table = table
        self._live_client = live_client

    def set(self, file: str | None, line: int | None, condition: str | None = None, hit_count: int | None = None,
            function: str | None = None, log_message: str | None = None) -> Breakpoint:
        """A line breakpoint (file and line) or a function breakpoint (function). With a
        live session the adapter parses the condition at once: a syntax error is refused
        here (and the breakpoint dropped), not at the stop; otherwise it is checked when
        the breakpoint is sent at the next launch, and its message says why it is not armed."""
        if function is not None:
            if file is not None or line is not None:
                raise InvalidParameterError("give either function, or file and line, not both")
            breakpoint = self._table.add_function(function, condition, hit_count, log_message)
        elif file is None or line is None:
            raise InvalidParameterError("give file and line (a line breakpoint) or function")
        else:
            breakpoint = self._table.add(file, line, condition, hit_count, log_message)
        self._resend(breakpoint)
        if (refusal := refused_condition(breakpoint)) is not None:
            self.remove(breakpoint.id)
            raise InvalidParameterError(refusal, condition=condition)
        return breakpoint

    def remove(self, breakpoint_id: int) -> Breakpoint:
        breakpoint = self._table.remove(breakpoint_id)
        self._resend(breakpoint)
        return breakpoint

    def set_exception_filter(self, filter_name: str, exception_type: str | None, clear: bool = False) -> bool:
        """Add, replace or clear one exception filter; True when a live adapter has it now."""
        self._table.set_exception_filter(filter_name, exception_type, clear)
        client = self._live_client()
        if client is None:
            return False
        filters, options = self._table.exception_request()
        client.set_exception_breakpoints(filters, options)
        return True

    def _resend(self, breakpoint: Breakpoint) -> None:
        client = self._live_client()
        if client is None:
            return
        if breakpoint.file is not None:
            send_file(client, self._table, breakpoint.file)
        else:
            send_functions(client, self._table)
