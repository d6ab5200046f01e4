"""Typed DAP requests over a DapChannel: one method per request pyinspect uses.

Methods return the response body (a dict as the DAP spec shapes it) and raise
RequestFailedError / AdapterTimeoutError / AdapterDiedError; nothing else leaks up.
"""

from __future__ import annotations

from typing import Any

from pyinspect.dap.channel import DEFAULT_TIMEOUT, DapChannel, EventListener

__all__ = ["DapClient"]

_LAUNCH_TIMEOUT = 30.0


class DapClient:
    def __init__(self, channel: DapChannel, adapter_id: str = "coreclr") -> None:
        self.channel = channel
        self.adapter_id = adapter_id
        self.capabilities: dict[str, Any] = {}
        """What `initialize` answered (empty before it)."""

    def add_listener(self, listener: EventListener) -> None:
        self.channel.add_listener(listener)

    def wait_event(self, name: str, timeout: float = DEFAULT_TIMEOUT,
                   predicate: Any = None) -> dict[str, Any]:
        """The event's whole message (``body`` holds its fields)."""
        return self.channel.wait_event(name, timeout, predicate)

    def _call(self, command: str, arguments: dict[str, Any] | None = None,
              timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        return self.channel.request(command, arguments, timeout)

    def initialize(self) -> dict[str, Any]:
        """The adapter's capabilities, also kept as ``capabilities``."""
        self.capabilities = self._call("initialize", {
            "clientID": "pyinspect", "clientName": "pyinspect", "adapterID": self.adapter_id,
            "linesStartAt1": True, "columnsStartAt1": True, "pathFormat": "path",
            "supportsVariableType": True, "supportsMemoryReferences": True,
        })
        return self.capabilities

    def launch(self, program: str, args: list[str] | None = None, cwd: str | None = None,
               env: dict[str, str] | None = None, stop_at_entry: bool = False) -> dict[str, Any]:
        arguments: dict[str, Any] = {"program": program, "args": args or [], "stopAtEntry": stop_at_entry}
        if cwd is not None:
            arguments["cwd"] = cwd
        if env:
            arguments["env"] = env
        return self._call("launch", arguments, _LAUNCH_TIMEOUT)

    def attach(self, pid: int) -> dict[str, Any]:
        return self._call("attach", {"processId": pid}, _LAUNCH_TIMEOUT)

    def configuration_done(self) -> dict[str, Any]:
        return self._call("configurationDone")

    def set_breakpoints(self, path: str, breakpoints: list[dict[str, Any]]) -> list[dict[str, Any]]:
        body = self._call("setBreakpoints", {"source": {"path": path}, "breakpoints": breakpoints,
                                             "lines": [b["line"] for b in breakpoints]})
        return list(body.get("breakpoints") or [])

    def set_exception_breakpoints(self, filters: list[str],
                                  filter_options: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        arguments: dict[str, Any] = {"filters": filters}
        if filter_options:
            arguments["filterOptions"] = filter_options
        return self._call("setExceptionBreakpoints", arguments)

    def threads(self) -> list[dict[str, Any]]:
        return list(self._call("threads").get("threads") or [])

    def stack_trace(self, thread_id: int, start_frame: int = 0, levels: int = 20) -> dict[str, Any]:
        return self._call("stackTrace", {"threadId": thread_id, "startFrame": start_frame, "levels": levels})

    def scopes(self, frame_id: int) -> list[dict[str, Any]]:
        return list(self._call("scopes", {"frameId": frame_id}).get("scopes") or [])

    def variables(self, reference: int, start: int | None = None, count: int | None = None) -> list[dict[str, Any]]:
        arguments: dict[str, Any] = {"variablesReference": reference}
        if start is not None:
            arguments["start"] = start
        if count is not None:
            arguments["count"] = count
        return list(self._call("variables", arguments).get("variables") or [])

    def evaluate(self, expression: str, frame_id: int | None = None, context: str = "watch",
                 timeout: float = DEFAULT_TIMEOUT, read_only: bool = False) -> dict[str, Any]:
        """read_only asks our adapter to refuse assignments (`noSideEffects`; other adapters ignore it)."""
        arguments: dict[str, Any] = {"expression": expression, "context": context}
        if read_only:
            arguments["noSideEffects"] = True
        if frame_id is not None:
            arguments["frameId"] = frame_id
        return self._call("evaluate", arguments, timeout)

    def exception_info(self, thread_id: int) -> dict[str, Any]:
        return self._call("exceptionInfo", {"threadId": thread_id})

    def set_function_breakpoints(self, breakpoints: list[dict[str, Any]]) -> list[dict[str, Any]]:
        body = self._call("setFunctionBreakpoints", {"breakpoints": breakpoints})
        return list(body.get("breakpoints") or [])

    def set_expression(self, expression: str, value: str, frame_id: int) -> dict[str, Any]:
        return self._call("setExpression", {"expression": expression, "value": value, "frameId": frame_id})

    def continue_(self, thread_id: int) -> dict[str, Any]:
        return self._call("continue", {"threadId": thread_id})

    def next(self, thread_id: int) -> dict[str, Any]:
        return self._call("next", {"threadId": thread_id})

    def step_in(self, thread_id: int) -> dict[str, Any]:
        return self._call("stepIn", {"threadId": thread_id})

    def step_out(self, thread_id: int) -> dict[str, Any]:
        return self._call("stepOut", {"threadId": thread_id})

    def pause(self, thread_id: int = 0) -> dict[str, Any]:
        return self._call("pause", {"threadId": thread_id})

    def disconnect(self, terminate_debuggee: bool, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        return self._call("disconnect", {"terminateDebuggee": terminate_debuggee, "restart": False}, timeout)
