"""Fuzzing the MCP server: hostile arguments drawn from each tool's own input schema,
the session driven into each state (no session, running, paused, exited) with a
DebuggeeLoop counting into a file, and the checks every answer must pass.

Shared by tests/server/test_fuzz.py (a few hundred calls) and benchmarks/fuzz_server.py
(10,000). Arguments never name a real process or program: an attach to a pid of this
shared machine, or a launch of a real file, would be the fuzzer doing harm itself.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from mcp import Client
from mcp_types import CallToolResult

from support.debuggee_loop import counter_moves
from support.targets import target_dll, wait_for_file

STATES = ("no_session", "running", "paused", "exited")
LIFECYCLE = ("debug_disconnect",)  # ends the session: drawn only where there is none to lose
NO_SUCH_PIDS = (-1, 0, 2**31 - 1, 4_194_305)  # beyond Linux's pid_max
HOSTILE_TEXT = ("this._customer", "1/0", "\x00", "' OR 1=1 --", "x = 5", "counter++", "new int[int.MaxValue]",
                "((object)null).ToString()", "\u202e\u0645\U0001f600", "${{7*7}}", "../../../../etc/passwd",
                "System.Threading.Thread.Sleep(60000)", "typeof(int).Assembly", "counter" * 200)

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40), st.sampled_from(HOSTILE_TEXT),
)
hostile_values = st.one_of(
    _scalars, st.lists(_scalars, max_size=4), st.dictionaries(st.text(max_size=8), _scalars, max_size=3),
    st.just("x" * 1_000_000),
)


def _safe(name: str, value: Any) -> Any:
    """Replace what could touch a real process or file: pids, existing paths."""
    if name == "pid" and isinstance(value, int) and value not in NO_SUCH_PIDS:
        return NO_SUCH_PIDS[abs(value) % len(NO_SUCH_PIDS)]
    if name in ("program", "cwd", "path", "dump") and isinstance(value, str) and value.strip() \
            and os.path.exists(value):
        return "/nonexistent/" + value.strip("/")[:50]
    if name == "path" and isinstance(value, str) and value.startswith("/"):  # dump_create writes files
        return "/nonexistent/" + value.strip("/")[:50]
    return value


@st.composite
def tool_arguments(draw: st.DrawFn, schema: dict[str, Any]) -> dict[str, Any]:
    """Some of the tool's parameters (required ones sometimes missing), hostile values,
    and now and then an unknown extra key."""
    properties: dict[str, Any] = schema.get("properties", {})
    arguments: dict[str, Any] = {}
    for name in properties:
        if draw(st.integers(0, 3)) > 0:
            arguments[name] = _safe(name, draw(hostile_values))
    if draw(st.integers(0, 9)) == 0:
        arguments[draw(st.text(min_size=1, max_size=10))] = draw(_scalars)
    return arguments


def check_envelope(tool: str, result: CallToolResult) -> dict[str, Any]:
    """A success answer structured (its text the same JSON); an error one with no structured
    content (it would fail the tool's output schema) and the envelope with a code as its
    JSON text (evaluate: its own envelope)."""
    text = json.loads(result.content[0].text)  # type: ignore[union-attr]
    if result.is_error:
        assert result.structured_content is None, f"{tool}: an error with structured content"
        answer = text
    else:
        answer = result.structured_content
        assert text == answer, f"{tool}: text and structure differ"
    assert isinstance(answer, dict), f"{tool}: no JSON object in the answer: {result.content}"
    if not result.is_error:
        assert answer.get("success", True) is True and "error" not in answer, f"{tool}: {answer}"
        return answer
    if answer.get("error") is True:  # evaluate's contract
        assert isinstance(answer.get("message"), str) and answer.get("code"), f"{tool}: {answer}"
    else:
        error = answer.get("error")
        assert answer.get("success") is False and isinstance(error, dict), f"{tool}: {answer}"
        assert isinstance(error.get("code"), str) and error["code"] and isinstance(error.get("message"), str)
        assert "Traceback" not in error["message"], f"{tool}: a traceback in the answer"
    return answer


class SessionDriver:
    """Brings the server's one session into a wanted state, on a DebuggeeLoop."""

    def __init__(self, client: Client, folder: Path) -> None:
        self.client = client
        self.folder = folder
        self.counter = folder / "counter.txt"

    async def state(self) -> str:
        answer = check_envelope("debug_state", await self.client.call_tool("debug_state", {}))
        return str(answer["state"])

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return check_envelope(tool, await self.client.call_tool(tool, arguments))

    async def reach(self, wanted: str) -> None:
        current = await self.state()
        if wanted == current or (wanted == "no_session" and current == "not_started"):
            return
        if wanted in ("no_session", "exited") or current in ("not_started", "exited"):
            await self.call("debug_disconnect")
        if wanted == "no_session":
            return
        if wanted == "exited":
            await self.call("debug_launch", program=str(target_dll("AgentStory")), args=["3"])
            await self.call("debug_wait", timeout_ms=20000)
            return
        if await self.state() not in ("running", "paused"):
            self.counter.unlink(missing_ok=True)
            await self.call("debug_launch", program=str(target_dll("DebuggeeLoop")), args=[str(self.counter)])
            wait_for_file(self.counter)
        if wanted == "paused" and await self.state() == "running":
            await self.call("debug_pause")
        if wanted == "running" and await self.state() == "paused":
            await self.call("debug_continue", wait=False)

    async def check_not_frozen(self) -> None:
        """Not paused (by the session's word) means the DebuggeeLoop's counter moves."""
        if await self.state() != "running" or not self.counter.exists():
            return
        if not counter_moves(self.counter, 0.3):
            assert await self.state() != "running", "the session says running but the debuggee is stopped"
