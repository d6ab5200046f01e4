"""The full agent story through the MCP in-memory client against AgentStory under our
adapter: breakpoint before launch, launch, wait, stack, locals, expand, evaluate, step,
continue to the exit code; and a hit count counted across stops."""

from __future__ import annotations

import psutil
import pytest
from mcp import Client
from mcp_calls import call_ok, story_line, story_source, with_client
from support.targets import target_dll

pytestmark = pytest.mark.asyncio


@with_client
async def test_the_agent_story_from_breakpoint_to_exit_code(client: Client) -> None:
    bp = (await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("price")))["breakpoint"]
    assert bp["verified"] is False  # pending: no session yet
    launched = await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), args=["3"])
    assert launched["state"] in ("running", "paused") and launched["mode"] == "launch"

    stop = await call_ok(client, "debug_wait", timeout_ms=20000)
    assert stop["state"] == "paused" and stop["stop_reason"] == "breakpoint"
    assert stop["hit_breakpoint_ids"] == [bp["id"]]
    assert stop["location"] == {"function": "Price", "file": story_source(), "line": story_line("price")}

    stack = await call_ok(client, "stacktrace_get")
    assert stack["thread_id"] == stop["thread_id"] and stack["total_frames"] >= 3
    top, caller, main = stack["frames"][:3]
    assert (top["index"], top["function"], top["line"], top["module"]) == (0, "Price", story_line("price"),
                                                                          "AgentStory.dll")
    assert top["arguments"] == [{"name": "quantity", "type": "int", "value": "1"}]
    assert (caller["function"], caller["line"]) == ("Process", story_line("add"))
    assert (main["function"], main["line"]) == ("Main", story_line("call"))

    frame = (await call_ok(client, "variables_get"))["variables"]
    assert [v["name"] for v in frame] == ["this", "quantity", "unit", "total"]
    assert frame[0]["has_children"] is True and "scope" not in frame[0]
    assert frame[1] == {"name": "quantity", "type": "int", "value": "1", "has_children": False, "scope": "argument"}
    assert frame[2]["value"] == "2.5" and frame[2]["scope"] == "local"
    arguments = (await call_ok(client, "variables_get", scope="arguments"))["variables"]
    assert [v["name"] for v in arguments] == ["quantity"]
    caller_args = (await call_ok(client, "variables_get", frame_index=1, scope="arguments"))["variables"]
    assert {v["name"]: v["value"] for v in caller_args} == {"quantities": "{int[3]}", "label": '"first"'}

    customer = (await call_ok(client, "variables_get", expand="this._customer"))["variables"]
    by_name = {v["name"]: v for v in customer}
    assert by_name["Name"]["value"] == '"Ada"' and by_name["Name"]["parent"] == "this._customer"
    assert by_name["Id"]["value"] == "7" and by_name["Referrer"]["value"] == "null"
    assert by_name["Orders"]["has_children"] is True

    name = await call_ok(client, "evaluate", expression="this._customer.Name")
    assert name == {"success": True, "result": '"Ada"', "type": "string", "has_children": False}
    assert (await call_ok(client, "evaluate", expression="this._customer.Id", format="hex"))["result"] == "0x7"
    assert (await call_ok(client, "evaluate", expression="this._customer.Id", format="binary"))["result"] == "0b111"

    stepped = await call_ok(client, "debug_step", mode="over")
    assert stepped["state"] == "paused" and stepped["stop_reason"] == "step"
    assert stepped["location"]["line"] == story_line("price-return")
    total = (await call_ok(client, "evaluate", expression="total"))["result"]
    assert total == "2.5"

    again = await call_ok(client, "debug_continue")
    assert again["state"] == "paused" and again["location"]["line"] == story_line("price"), again
    assert (await call_ok(client, "evaluate", expression="quantity"))["result"] == "2"
    listed = (await call_ok(client, "breakpoint_list"))["breakpoints"]
    assert listed[0]["hits"] == 2 and listed[0]["verified"] is True

    await call_ok(client, "breakpoint_remove", id=bp["id"])
    end = await call_ok(client, "debug_continue", timeout_ms=20000)
    assert end["state"] == "exited" and end.get("exit_code") == 3, end
    done = await call_ok(client, "debug_disconnect")
    assert done["state"] == "not_started"


@with_client
async def test_a_hit_count_stops_only_at_the_nth_hit(client: Client) -> None:
    bp = (await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("add"),
                        hit_count=3))["breakpoint"]
    await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")))
    stop = await call_ok(client, "debug_wait", timeout_ms=20000)
    assert stop["state"] == "paused" and stop["hit_breakpoint_ids"] == [bp["id"]]
    assert (await call_ok(client, "evaluate", expression="quantity"))["result"] == "3"
    assert (await call_ok(client, "breakpoint_list"))["breakpoints"][0]["hits"] == 3
    pid = stop["pid"]
    done = await call_ok(client, "debug_disconnect")
    assert "terminated" in done["message"]
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


@with_client
async def test_breakpoints_survive_into_a_second_launch(client: Client) -> None:
    await call_ok(client, "breakpoint_set", file=story_source(), line=story_line("exit"))
    for exit_code in ("4", "5"):
        await call_ok(client, "debug_launch", program=str(target_dll("AgentStory")), args=[exit_code])
        stop = await call_ok(client, "debug_wait", timeout_ms=20000)
        assert stop["location"]["line"] == story_line("exit")
        assert (await call_ok(client, "evaluate", expression="exitCode"))["result"] == exit_code
        end = await call_ok(client, "debug_continue", timeout_ms=20000)
        assert end["state"] == "exited" and end.get("exit_code") == int(exit_code), end
