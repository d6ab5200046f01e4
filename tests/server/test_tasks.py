"""Long calls as MCP tasks (the tasks extension of 2026-07-28) on one real HTTP server: the
Python SDK's Client, given a tasks extension that polls tasks/get, gets a heap walk's answer
and a recording's through tasks; a task cancelled while the heap walk runs says where the walk stopped, and the
next walk answers in full; one cancelled once the walk is done stops the graph's phase under way (the
dominator pass...) and says which; a client that does not declare the extension is answered directly.

The server makes every long call a task at once (PYINSPECT_TASK_AFTER_MS=0): LeakStory's
heap of a million objects is walked in well under a second, too fast to catch halfway after
the default second."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from typing import Any, ClassVar, Literal

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.streamable_http import streamable_http_client
from mcp_calls import call_ok
from mcp_types import CallToolResult, Request, RequestParams, Result
from pydantic import ConfigDict, Field
from support.targets import running_target, wait_for_file
from test_transports import TOKEN, serving_http

pytestmark = pytest.mark.asyncio
TASKS = "io.modelcontextprotocol/tasks"
LEAKED = "LeakStory.LeakedSession"
BATCHES = 100  # a million LeakedSession objects: a walk of several batches
APP_OBJECTS = 6_000_000  # an app-shaped heap whose graph phases after the walk take about half a second
PHASES = ["the trimming of the walk's arrays", "the address index", "reference resolution", "the dominator pass",
          "the retained sizes"]  # the helper's phases after the walk that run across calls (HeapGraphBuilder.Phases)


class _TaskId(RequestParams):
    task_id: str = Field(alias="taskId")


class _TaskGet(Request[_TaskId, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param: ClassVar[str | None] = "taskId"  # the spec's Mcp-Name header


class _TaskCancel(Request[_TaskId, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param: ClassVar[str | None] = "taskId"


class _Task(Result):
    """A task as tasks/get (resultType complete) or a tools/call (resultType task) answers it."""

    model_config = ConfigDict(extra="allow")
    result_type: str = Field(alias="resultType")
    task_id: str = Field(alias="taskId")
    status: str
    status_message: str | None = Field(default=None, alias="statusMessage")
    poll_interval_ms: int | None = Field(default=None, alias="pollIntervalMs")
    result: dict[str, Any] | None = None


class _CreatedTask(_Task):
    result_type: Literal["task"] = Field(alias="resultType")  # type: ignore[assignment]


async def _poll(ctx: ClaimContext | Client, task_id: str) -> _Task:
    """tasks/get until the task ends (at its pollIntervalMs); its last state."""
    session = ctx.session
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        task = await session.send_request(_TaskGet(params=_TaskId(taskId=task_id)), _Task)
        assert task.task_id == task_id and task.result_type == "complete", task
        if task.status in ("completed", "failed", "cancelled"):
            return task
        await anyio.sleep((task.poll_interval_ms or 500) / 1000)
    raise AssertionError(f"task {task_id} never ended")


class _PollingTasks(ClientExtension):
    """The tasks extension as a client: a task answer is polled to its end, its result returned."""

    identifier = TASKS

    def __init__(self) -> None:
        self.seen: list[str] = []

    def claims(self) -> list[ResultClaim[Any]]:
        async def resolve(created: _CreatedTask, ctx: ClaimContext) -> CallToolResult:
            self.seen.append(created.task_id)
            assert created.status == "working" and len(created.task_id) >= 32, created
            ended = await _poll(ctx, created.task_id)
            assert ended.status == "completed" and ended.result is not None, ended
            return CallToolResult.model_validate(ended.result)

        return [ResultClaim(result_type="task", model=_CreatedTask, resolve=resolve)]


def _client(port: int, extension: ClientExtension | None) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=httpx2.Timeout(60.0))
    return Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http),
                  extensions=[extension] if extension is not None else [])


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    env = {**os.environ, "PYINSPECT_HTTP_TOKEN": TOKEN, "PYINSPECT_TASK_AFTER_MS": "0"}
    with serving_http(env=env) as (served, _):
        yield served


@pytest.fixture(scope="module")
def leak(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """LeakStory holding BATCHES batches: (its pid, how many LeakedSession it holds)."""
    status = tmp_path_factory.mktemp("tasks") / "status.json"
    with running_target("LeakStory", str(status)) as proc:
        wait_for_file(status, timeout=60, proc=proc)
        assert proc.stdin is not None
        proc.stdin.write(b"leak\n" * BATCHES)
        proc.stdin.flush()
        held = BATCHES * json.loads(status.read_text())["batch"]
        deadline = time.monotonic() + 120
        while json.loads(status.read_text())["held"] < held and time.monotonic() < deadline:
            time.sleep(0.1)
        assert json.loads(status.read_text())["held"] == held
        yield proc.pid, held


async def test_a_heap_walk_run_as_a_task_is_polled_to_its_answer(port: int, leak: tuple[int, int]) -> None:
    pid, held = leak
    tasks = _PollingTasks()
    async with _client(port, tasks) as client:
        assert TASKS in (client.server_capabilities.extensions or {})  # server/discover says so
        handle = (await call_ok(client, "heap_attach", pid=pid))["handle"]  # quick: answered directly
        assert not tasks.seen
        stats = await call_ok(client, "heap_stats", handle=handle, top=1000)
        assert len(tasks.seen) == 1  # the walk came as a task, polled to its end
        leaked = next(row for row in stats["types"] if row["type"] == LEAKED)
        assert leaked["count"] == held and stats["handle"] == handle, leaked
        recording = (await call_ok(client, "trace_start", pid=pid, allocations=False))["handle"]
        trace = await call_ok(client, "trace_stop", handle=recording)  # reading the events: a task too
        assert len(tasks.seen) == 2 and (trace["handle"], trace["pid"]) == (recording, pid), trace.keys()
    async with _client(port, None) as plain:  # no tasks extension: the answer itself, as before
        handle = (await call_ok(plain, "heap_attach", pid=pid))["handle"]
        result = await plain.call_tool("heap_stats", {"handle": handle, "top": 1})
        assert not result.is_error and result.structured_content, result


async def _heap_stats_task(client: Client, pid: int) -> tuple[str, str]:
    """The process opened and heap_stats on it started as a task: (the heap's handle, the task's id)."""
    handle = (await call_ok(client, "heap_attach", pid=pid))["handle"]
    created = await client.session.call_tool("heap_stats", {"handle": handle}, allow_claimed=True)
    assert isinstance(created, _CreatedTask), created
    return handle, created.task_id


async def _cancelled(client: Client, task_id: str) -> _Task:
    """tasks/cancel, then the task polled to its end, which must be cancelled with no result."""
    await client.session.send_request(_TaskCancel(params=_TaskId(taskId=task_id)), Result)
    ended = await _poll(client, task_id)
    assert ended.status == "cancelled" and ended.result is None, ended
    return ended


async def test_a_cancelled_task_stops_the_heap_walk_halfway(port: int, leak: tuple[int, int]) -> None:
    pid, held = leak
    async with _client(port, _PollingTasks()) as client:
        handle, task_id = await _heap_stats_task(client, pid)
        ended = await _cancelled(client, task_id)
        message = ended.status_message or ""
        walked, total = (int(n.replace(",", "")) for n in message.split("stopped at ")[1].split(" bytes")[0]
                         .split(" of "))
        assert 0 < walked < total, message  # it stopped between two batches, not at the end
        stats = await call_ok(client, "heap_stats", handle=handle, top=1000)  # a new walk, to its end
        assert next(row for row in stats["types"] if row["type"] == LEAKED)["count"] == held
        unknown = client.session.send_request(_TaskGet(params=_TaskId(taskId="x" * 32)), _Task)
        with pytest.raises(Exception, match="(?i)task not found"):
            await unknown


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """HeapTruth's app-shaped heap of APP_OBJECTS objects: (its pid, how many customers it holds)."""
    ready = tmp_path_factory.mktemp("app") / "ready.json"
    with running_target("HeapTruth", "app", str(APP_OBJECTS), str(ready)) as proc:
        wait_for_file(ready, timeout=60, proc=proc)
        yield proc.pid, json.loads(ready.read_text())["customers"]


async def _until_a_phase_after_the_walk(client: Client, task_id: str) -> str:
    """tasks/get at once and again until the task says the walk is done and names the graph's
    phase under way (each phase is reported as it starts); that phase."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        task = await client.session.send_request(_TaskGet(params=_TaskId(taskId=task_id)), _Task)
        assert task.status == "working", task
        said = re.fullmatch(r"building the heap graph: (.+) \(the walk is done\)", task.status_message or "")
        if said:
            return said[1]
        await anyio.sleep(0.005)
    raise AssertionError(f"task {task_id} never reached a phase after the walk")


async def test_a_task_cancelled_after_the_walk_stops_the_graph_phase_under_way(port: int, app: tuple[int, int]) -> None:
    pid, customers = app
    async with _client(port, _PollingTasks()) as client:
        handle, task_id = await _heap_stats_task(client, pid)
        reported = await _until_a_phase_after_the_walk(client, task_id)
        ended = await _cancelled(client, task_id)
        message = ended.status_message or ""
        stopped = re.search(r"the heap walk had ended \(([\d,]+) bytes\); building the graph stopped (during|after) "
                            r"(.+)$", message)
        assert stopped and int(stopped[1].replace(",", "")) > 0, message
        assert stopped[3] in PHASES and PHASES.index(stopped[3]) >= PHASES.index(reported), (reported, message)
        stats = await call_ok(client, "heap_stats", handle=handle, top=1000)  # built again, to its end
        assert next(row for row in stats["types"] if row["type"] == "HeapTruth.Customer")["count"] == customers
