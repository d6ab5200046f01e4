"""The ASP.NET Core app (tests/targets/WebApp) debugged through the MCP server the way an
agent works: breakpoints checked when set, a breakpoint in a handler hit by a real HTTP
request, stack, variables paged through a 10,000-order list, evaluate, summarize and
inspect with values as people read them, an exception stop on a failing endpoint read with
exception_get, the program's output read back, then the app serving on.

The session is launched (debug_launch), so debug_disconnect terminates the app; breakpoints
and filters are removed first and the app is shown serving before that."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_calls import call, call_ok, error_code, with_client
from support.targets import marker_line, target_dll, target_source
from support.webapp import HttpAnswer, free_port, http_get, url_args, wait_until_serving

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(300)]

PROGRAM = str(target_source("WebApp"))


def in_background(request: Callable[[], HttpAnswer]) -> tuple[threading.Thread, list[HttpAnswer]]:
    """An HTTP request that will be held by a breakpoint: sent from a thread."""
    answers: list[HttpAnswer] = []
    thread = threading.Thread(target=lambda: answers.append(request()), daemon=True)
    thread.start()
    return thread, answers


async def output_containing(client: Client, text: str, seconds: float = 15.0) -> str:
    """The program's output so far, once it contains text (the console logger writes from its
    own thread, a little after the call that logged)."""
    everything = ""
    cursor = 0
    for _ in range(int(seconds * 10)):
        page = await call_ok(client, "process_output", cursor=cursor, max_chars=100_000)
        assert page["available"] is True and page["total"] >= page["next_cursor"], page
        everything += "".join(entry["text"] for entry in page["entries"])
        cursor = page["next_cursor"]
        if text in everything:
            return everything
        await anyio.sleep(0.1)
    raise AssertionError(f"{text!r} not in the program's output: {everything[-3000:]}")


async def set_breakpoints(client: Client) -> int:
    """A refusal first (item 6), then the handler's breakpoint and the exception filters (a bad
    condition is refused once a session is live: the adapter parses it)."""
    assert await error_code(client, "breakpoint_set", file="/no/such/Program.cs", line=3) == "INVALID_PARAMETER"
    good = await call_ok(client, "breakpoint_set", file=PROGRAM, line=marker_line("WebApp", "get-order"),
                         condition="id == 7")
    await call_ok(client, "breakpoint_set_exception", filter="user_unhandled")
    await call_ok(client, "breakpoint_set_exception", filter="all", exception_type="System.InvalidOperationException")
    listed = await call_ok(client, "breakpoint_list")
    assert listed["exception_filters"] == ["user_unhandled", "all"], listed
    cleared = await call_ok(client, "breakpoint_set_exception", filter="user_unhandled", clear=True)
    assert cleared["exception_filters"] == ["all"], cleared
    breakpoint_id: int = good["breakpoint"]["id"]
    return breakpoint_id


async def read_the_order_request(client: Client) -> None:
    stack = await call_ok(client, "stacktrace_get")
    assert stack["frames"][0]["line"] == marker_line("WebApp", "get-order"), stack
    assert (await call_ok(client, "evaluate", expression="id * 2"))["result"] == "14"
    orders = "repository._orders"
    first = await call_ok(client, "variables_get", expand=orders, count=50)
    assert len(first["variables"]) == 50 and first["truncated"] is True and first["next_start"] == 50, \
        {k: v for k, v in first.items() if k != "variables"}
    assert first["total"] >= 10_000 and first["variables"][0]["name"] == "[0]"
    last = await call_ok(client, "variables_get", expand=orders, start=9_990, count=10)
    assert [v["name"] for v in last["variables"]] == [f"[{i}]" for i in range(9_990, 10_000)], last
    analysis = (await call_ok(client, "collection_analyze", expression=orders))["summary"]
    assert analysis["count"] == 10_000 and analysis["lastElements"][-1]["index"] == 9_999
    await call_ok(client, "debug_step", mode="over")
    summary = (await call_ok(client, "object_summarize", expression="order"))["summary"]
    values = {f["name"]: f["value"] for f in summary["fields"]}
    # order 7: not shipped (7 % 3 != 0), status 7 % 4 = Cancelled, flags 7 % 8 = all three
    assert values["Id"] == "7" and values["Total"] == "7.25", values
    assert values["Status"] == "Cancelled" and values["Flags"] == "Gift | Express | Fragile", values
    assert values["ShippedAt"] == "null" and "ShippedAt" in summary["nullFields"], summary
    assert values["CreatedAt"].startswith("2026-01-01T00:07:00"), values
    fields = (await call_ok(client, "object_inspect", object_ref="order"))["inspection"]["fields"]
    status = next(f for f in fields if f["name"] == "Status")
    assert status["value"] == "Cancelled" and status["fieldName"] == "<Status>k__BackingField", status


async def read_the_exception(client: Client, port: int) -> None:
    thread, answers = in_background(lambda: http_get(port, "/fail/sync?id=5", timeout=60))
    stop = await call_ok(client, "debug_wait", timeout_ms=60_000)
    assert stop["stop_reason"] == "exception", stop
    thrown = await call_ok(client, "exception_get")
    exception = thrown["exception"]
    assert exception["type"] == "System.InvalidOperationException" and thrown["break_mode"] == "always", thrown
    assert exception["message"] == "sync endpoint failed (5)"
    assert {"file": PROGRAM, "line": marker_line("WebApp", "fail-sync-throw")}.items() <= \
        exception["frames"][0].items(), exception["frames"][:2]
    assert len(exception["frames"]) > 5, "the stack stops at the top frame"
    await call_ok(client, "breakpoint_set_exception", filter="all", clear=True)
    await call_ok(client, "debug_continue", wait=False)
    thread.join(60)
    assert answers and answers[0].status == 500, answers
    await output_containing(client, "sync endpoint failed (5)")


@with_client
async def test_an_agent_debugs_the_web_app_end_to_end(client: Client) -> None:
    breakpoint_id = await set_breakpoints(client)
    port = free_port()
    await call_ok(client, "debug_launch", program=str(target_dll("WebApp")), args=url_args(port))
    await anyio.to_thread.run_sync(lambda: wait_until_serving(port))
    assert all(b["verified"] for b in (await call_ok(client, "breakpoint_list"))["breakpoints"])
    assert "Now listening on" in await output_containing(client, "Now listening on")

    thread, answers = in_background(lambda: http_get(port, "/orders/7", timeout=60))
    stop = await call_ok(client, "debug_wait", timeout_ms=60_000)
    assert stop["state"] == "paused" and stop["hit_breakpoint_ids"] == [breakpoint_id], stop
    await read_the_order_request(client)
    await call_ok(client, "debug_continue", wait=False)
    thread.join(60)
    assert answers and answers[0].status == 200 and '"id":7' in answers[0].body, answers
    await output_containing(client, "get order 7")

    await read_the_exception(client, port)

    await call_ok(client, "breakpoint_remove", id=breakpoint_id)
    unused = await call_ok(client, "breakpoint_set", file=PROGRAM, line=marker_line("WebApp", "describe"))
    assert unused["breakpoint"]["verified"] is True, unused
    # the live adapter parses a condition when it is set: a syntax error is refused, with Roslyn's message
    bad = await call(client, "breakpoint_set", file=PROGRAM, line=marker_line("WebApp", "describe"), condition="id ==")
    assert bad["success"] is False and bad["error"]["code"] == "INVALID_PARAMETER", bad
    assert "condition 'id ==' is not a C# expression" in bad["error"]["message"], bad
    assert http_get(port, "/orders/count").body == "10000"  # still serving, nothing holds it
    ended = await call_ok(client, "debug_disconnect")
    assert ended["state"] == "not_started", ended
    # the breakpoints of an ended session are bound to nothing, and say so
    listed: dict[str, Any] = await call_ok(client, "breakpoint_list")
    assert [b["verified"] for b in listed["breakpoints"]] == [False], listed
    assert "no debug session" in listed["breakpoints"][0]["message"]


@with_client
async def test_a_function_breakpoint_stops_and_a_log_point_prints(client: Client) -> None:
    function = await call_ok(client, "breakpoint_set", function="WebApp.OrderRepository.Get")
    log_point = await call_ok(client, "breakpoint_set", file=PROGRAM, line=marker_line("WebApp", "describe"),
                              log_message="describing {id}")
    port = free_port()
    await call_ok(client, "debug_launch", program=str(target_dll("WebApp")), args=url_args(port))
    await anyio.to_thread.run_sync(lambda: wait_until_serving(port))
    thread, answers = in_background(lambda: http_get(port, "/orders/3/describe", timeout=60))
    stop = await call_ok(client, "debug_wait", timeout_ms=60_000)
    assert stop["state"] == "paused" and stop["hit_breakpoint_ids"] == [function["breakpoint"]["id"]], stop
    assert stop["location"]["function"].endswith("Get"), stop
    await call_ok(client, "breakpoint_remove", id=function["breakpoint"]["id"])
    await call_ok(client, "debug_continue", wait=False)
    thread.join(60)
    assert answers and answers[0].status == 200, answers
    await output_containing(client, "describing 3")
    assert log_point["breakpoint"]["log_message"] == "describing {id}"
    await call_ok(client, "debug_disconnect")
