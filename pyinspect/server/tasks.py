"""Long tool calls as MCP tasks: the tasks extension (``io.modelcontextprotocol/tasks``) of
protocol 2026-07-28.

Why: a first walk of a big heap (its graph, dominators and retained sizes), a core dump or
the reading of a recording take seconds to minutes; a client that declares the extension on
its request gets, for a call still running after INLINE_SECONDS, a task instead of an answer
held open: it polls ``tasks/get`` (the status, the walk's progress in ``statusMessage``, and
at the end the tool's answer as ``result``) and may ``tasks/cancel`` it. The extension of
2026-07-28 has no ``tasks/list`` and no ``tasks/result`` (the answer comes with ``tasks/get``);
``tasks/update`` is acknowledged (no pyinspect tool asks for input). A call that ends sooner,
and every call of a client without the extension, answers as before (with MCP progress).

Cancelling stops a heap walk at its next batch, or the graph's phase after the walk under way
at its next checkpoint (both are stepped from Python in short calls: pyinspect.heap.stepping);
the task then says where it stopped. A call that cannot stop halfway (dump_create, trace_stop)
runs to its end and its task completes with the answer.

A task belongs to the client that started it (its MCP session, or a 2026-07-28 request: then
its unguessable id is the credential); another client asking for it is told it does not exist.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio
from anyio.abc import TaskGroup
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver.server import require_client_extension
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    RequestParams,
)
from pydantic import Field

from pyinspect.server.call_kinds import owner_of_request
from pyinspect.server.settings import env_number

__all__ = ["EXTENSION", "INLINE_SECONDS", "LONG_TOOLS", "STOPPABLE", "RunningTask", "Tasks", "running_task"]

log = logging.getLogger(__name__)
EXTENSION = "io.modelcontextprotocol/tasks"
STOPPABLE = frozenset({"heap_stats", "heap_instances", "heap_retention", "heap_retained", "heap_strings",
                       "heap_segments", "heap_finalizer_queue", "heap_snapshot", "diagnose"})
"""Tools whose long part is a heap walk and its graph, which a cancel stops at its next batch or checkpoint."""
LONG_TOOLS = STOPPABLE | {"dump_create", "trace_stop"}
"""Tools that may become a task (when still running after INLINE_SECONDS)."""
INLINE_SECONDS = 1.0
"""A call still running after this long becomes a task ($PYINSPECT_TASK_AFTER_MS overrides it:
0 makes every call of LONG_TOOLS a task, for a client whose proxy cuts long requests)."""
POLL_MS = 500
TTL_MS = 3_600_000
"""A task is kept an hour from its creation (a finished one is forgotten after that)."""
_KEPT = 1000
_MODERN = frozenset({"2026-07-28"})


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class RunningTask:
    """One tool call run as a task; the tool's worker thread reports through it."""

    task_id: str
    owner: str | None
    created: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    born: float = field(default_factory=time.monotonic)
    status: str = "working"
    message: str | None = None
    answer: CallToolResult | None = None
    raised: BaseException | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    done: anyio.Event = field(default_factory=anyio.Event)
    scope: anyio.CancelScope | None = None
    keep_built: bool = True
    """A graph built by the time a cancel comes is kept (a task's cancel), not when the request
    itself was cancelled before it became a task (it stops as any cancelled request does)."""

    def report(self, message: str) -> None:
        """The work says where it is (statusMessage), from any thread."""
        self.message, self.updated = message, _now()

    def finish(self, status: str, message: str | None = None) -> None:
        self.status, self.updated = status, _now()
        if message is not None:
            self.message = message
        self.done.set()

    def wire(self) -> dict[str, Any]:
        task: dict[str, Any] = {"taskId": self.task_id, "status": self.status, "createdAt": self.created,
                                "lastUpdatedAt": self.updated, "ttlMs": TTL_MS, "pollIntervalMs": POLL_MS}
        if self.message is not None:
            task["statusMessage"] = self.message
        if self.status == "completed" and self.answer is not None:
            task["result"] = self.answer.model_dump(mode="json", by_alias=True, exclude_none=True)
        if self.status == "failed":
            error = self.raised
            code, text = (error.error.code, error.error.message) if isinstance(error, MCPError) else \
                (INTERNAL_ERROR, f"internal error: {type(error).__name__}")
            task["error"] = {"code": code, "message": text}
        return task


_running: ContextVar[RunningTask | None] = ContextVar("pyinspect_mcp_task", default=None)


def running_task() -> RunningTask | None:
    """The task the running tool call is, if it is one (visible in its worker threads too)."""
    return _running.get()


class _TaskId(RequestParams):
    task_id: str = Field(alias="taskId", max_length=100)


class _TaskUpdate(_TaskId):
    input_responses: dict[str, Any] | None = Field(default=None, alias="inputResponses")


class Tasks(Extension):
    """The tasks extension: decides which calls become tasks, runs them, answers tasks/*."""

    identifier = EXTENSION

    def __init__(self) -> None:
        self.inline_seconds = _inline_seconds()
        self._tasks: OrderedDict[str, RunningTask] = OrderedDict()
        self._lock = threading.Lock()
        self.task_group: TaskGroup | None = None
        """Set by the server's lifespan: tasks run there, outliving the request that started them."""

    def methods(self) -> Sequence[MethodBinding]:
        return (MethodBinding("tasks/get", _TaskId, self._get, _MODERN),
                MethodBinding("tasks/update", _TaskUpdate, self._update, _MODERN),
                MethodBinding("tasks/cancel", _TaskId, self._cancel, _MODERN))

    async def intercept_tool_call(self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any],
                                  call_next: CallNext) -> HandlerResult:
        if params.name not in LONG_TOOLS or self.task_group is None or not _declared(ctx):
            return await call_next(ctx)
        task = self._add(RunningTask(secrets.token_urlsafe(24), owner_of_request(ctx.request)))
        self.task_group.start_soon(self._run, task, ctx, call_next, params.name)
        try:
            with anyio.move_on_after(self.inline_seconds):
                await task.done.wait()
        except anyio.get_cancelled_exc_class():  # the request itself was cancelled: so is its work
            task.keep_built = False
            self._stop(task)
            self._forget(task.task_id)
            raise
        if not task.done.is_set():
            return {"resultType": "task", **task.wire()}
        self._forget(task.task_id)
        if task.raised is not None:
            raise task.raised
        return task.answer

    async def _run(self, task: RunningTask, ctx: ServerRequestContext[Any, Any], call_next: CallNext,
                   tool: str) -> None:
        """The call, in the server's task group; never raises (that would end the server)."""
        _running.set(task)
        try:
            with anyio.CancelScope() as scope:
                task.scope = scope if tool in STOPPABLE else None
                if task.scope is not None and task.stop.is_set():  # cancelled before it began
                    scope.cancel()
                answer = await call_next(ctx)
            if scope.cancelled_caught or (task.stop.is_set() and tool in STOPPABLE):
                task.finish("cancelled", f"cancelled by the client: {task.message or 'stopped'}")
                return
            task.answer = answer if isinstance(answer, CallToolResult) else CallToolResult.model_validate(answer)
        except Exception as exc:  # a protocol error or a bug: the task failed with it
            if not isinstance(exc, MCPError):
                log.error("task %s (%s) failed unexpectedly", task.task_id[:8], tool, exc_info=exc)
            task.raised = exc
            message = exc.error.message if isinstance(exc, MCPError) else f"internal error: {type(exc).__name__}"
            task.finish("failed", f"{tool} failed: {message}")
            return
        stopped = " (cancel asked, but it cannot stop halfway)" if task.stop.is_set() else ""
        task.finish("completed", f"{tool} completed{stopped}")

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: _TaskId) -> HandlerResult:
        return self._owned(ctx, params.task_id).wire()

    async def _update(self, ctx: ServerRequestContext[Any, Any], params: _TaskUpdate) -> HandlerResult:
        self._owned(ctx, params.task_id)  # no pyinspect task asks for input: nothing to deliver
        return {}

    async def _cancel(self, ctx: ServerRequestContext[Any, Any], params: _TaskId) -> HandlerResult:
        """Ask the work to stop: a heap walk or graph phase stops at its next batch or checkpoint,
        then the task says cancelled."""
        self._stop(self._owned(ctx, params.task_id))
        return {}

    @staticmethod
    def _stop(task: RunningTask) -> None:
        if not task.done.is_set():
            task.stop.set()
            task.report(f"cancelling: {task.message}" if task.message else "cancelling")
            if task.scope is not None:
                task.scope.cancel()

    def _owned(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> RunningTask:
        require_client_extension(ctx, EXTENSION)
        with self._lock:
            self._expire()
            task = self._tasks.get(task_id)
        if task is None or task.owner != owner_of_request(ctx.request):
            raise MCPError(code=INVALID_PARAMS, message="Failed to retrieve task: Task not found (unknown, "
                                                        "another client's, or past its ttlMs)")
        return task

    def _add(self, task: RunningTask) -> RunningTask:
        with self._lock:
            self._expire()
            self._tasks[task.task_id] = task
        return task

    def _forget(self, task_id: str) -> None:
        with self._lock:
            self._tasks.pop(task_id, None)

    def _expire(self) -> None:
        """Under the lock: forget finished tasks past their ttl, and the oldest finished ones
        beyond _KEPT (a task still working is never forgotten)."""
        now = time.monotonic()
        for task_id, task in list(self._tasks.items()):
            if task.done.is_set() and (now - task.born > TTL_MS / 1000 or len(self._tasks) > _KEPT):
                del self._tasks[task_id]


def _inline_seconds() -> float:
    return env_number("PYINSPECT_TASK_AFTER_MS", INLINE_SECONDS * 1000, 0, 3_600_000) / 1000


def _declared(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether this request's client declared the tasks extension (never assumed)."""
    try:
        require_client_extension(ctx, EXTENSION)
    except MCPError:
        return False
    return ctx.protocol_version in _MODERN
