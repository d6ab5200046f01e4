"""breakpoint_set_exception through the MCP client against AgentStory given a quantity that
is no number (`int.Parse` throws a FormatException in Main, unhandled): "all" with a type
stops at the throw; with a filter for another type the exception still stops where it is
about to kill the process (always, as netcoredbg and vsdbg do) and continuing lets it crash;
"user_unhandled" stops before it goes unhandled; a filter set while paused applies at once."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp_calls import call_ok, story_source, with_client
from support.targets import target_dll

pytestmark = pytest.mark.asyncio


async def launch_bad_number(client: Client, stop_at_entry: bool = False) -> dict[str, object]:
    await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), args=["oops"],
                  stop_at_entry=stop_at_entry)
    return await call_ok(client, "debug_wait", timeout_ms=20000)


async def assert_stopped_in_main_by(client: Client, state: dict[str, object], prefix: str) -> None:
    assert state["state"] == "paused" and state["stop_reason"] == "exception", state
    assert str(state["description"]).startswith(f"{prefix}: System.FormatException"), state
    frames = (await call_ok(client, "stacktrace_get"))["frames"]
    main = next(f for f in frames if not f.get("is_external"))
    assert (main["function"], main["file"]) == ("Main", str(story_source())), frames


@with_client
async def test_all_with_a_type_stops_where_it_is_thrown(client: Client) -> None:
    before = await call_ok(client, "breakpoint_set_exception", filter="all", exception_type="System.FormatException")
    assert before["applied"] is False  # no session yet: kept for the launch
    listed = await call_ok(client, "breakpoint_list")
    assert (listed["exception_filters"], listed["exception_types"]) == (["all"], {"all": "System.FormatException"})
    await assert_stopped_in_main_by(client, await launch_bad_number(client), "Exception thrown")
    await call_ok(client, "debug_disconnect")


@with_client
async def test_a_filter_for_another_type_stops_only_before_the_crash(client: Client) -> None:
    await call_ok(client, "breakpoint_set_exception", filter="all", exception_type="System.ArgumentException")
    await assert_stopped_in_main_by(client, await launch_bad_number(client), "Unhandled exception")
    end = await call_ok(client, "debug_continue", timeout_ms=20000)
    assert end["state"] == "exited" and end["exit_code"] != 0, end
    await call_ok(client, "debug_disconnect")


@with_client
async def test_user_unhandled_stops_before_the_crash(client: Client) -> None:
    await call_ok(client, "breakpoint_set_exception", filter="user_unhandled")
    await assert_stopped_in_main_by(client, await launch_bad_number(client), "Unhandled exception")
    await call_ok(client, "debug_disconnect")


@with_client
async def test_a_filter_set_while_paused_applies_at_once(client: Client) -> None:
    entry = await launch_bad_number(client, stop_at_entry=True)
    assert entry["state"] == "paused" and entry["stop_reason"] == "entry", entry
    applied = await call_ok(client, "breakpoint_set_exception", filter="all", exception_type="System.FormatException")
    assert applied["applied"] is True
    await assert_stopped_in_main_by(client, await call_ok(client, "debug_continue", timeout_ms=20000),
                                    "Exception thrown")
    await call_ok(client, "debug_disconnect")
