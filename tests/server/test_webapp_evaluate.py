"""The measured failures that opened the evaluation work, replayed through the MCP tools on
the ASP.NET Core app holding 10,000 orders: `evaluate` (read-only) answers LINQ over the
orders from memory and refuses `RemoveAt` and `File.WriteAllText` by name, running
nothing; `evaluate_with_calls` runs them, and the next reads (and the app itself, asked
over HTTP once resumed) see the change. Out arguments of a debuggee method likewise."""

from __future__ import annotations

import threading
from decimal import Decimal
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp_calls import call, call_ok, with_client
from support.targets import marker_line, target_dll, target_source
from support.webapp import HttpAnswer, free_port, http_get, url_args, wait_until_serving

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(300)]

ORDERS = "repository._orders"
TOTALS = [Decimal(i % 250) + Decimal("0.25") for i in range(1, 10_001)]


async def refused(client: Client, expression: str) -> str:
    answer = await call(client, "evaluate", expression=expression)
    assert answer.get("error") is True and answer["code"] == "EVALUATION_NEEDS_CALL", answer
    return str(answer["message"])


async def value(client: Client, tool: str, expression: str) -> str:
    return str((await call_ok(client, tool, expression=expression))["result"])


@with_client
async def test_read_only_evaluate_changes_nothing_and_calls_are_seen_afterwards(client: Client, tmp_path: Path) -> None:
    probe = tmp_path / "probe.txt"
    await call_ok(client, "breakpoint_set", file=str(target_source("WebApp")), line=marker_line("WebApp", "get-order"))
    port = free_port()
    await call_ok(client, "debug_launch", program=str(target_dll("WebApp")), args=url_args(port))
    await anyio.to_thread.run_sync(lambda: wait_until_serving(port))
    answers: list[HttpAnswer] = []
    request = threading.Thread(target=lambda: answers.append(http_get(port, "/orders/7", timeout=60)), daemon=True)
    request.start()
    assert (await call_ok(client, "debug_wait", timeout_ms=60_000))["state"] == "paused"

    # From memory, on the read-only path.
    assert await value(client, "evaluate", f"{ORDERS}.Where(o => o.Total > 100).Count()") == \
        str(sum(1 for t in TOTALS if t > 100))
    assert await value(client, "evaluate", f"{ORDERS}.Sum(o => o.Total)") == str(sum(TOTALS))
    # Through the interface's getter (`All => _orders`), interpreted from its IL: issue 25's done-when line.
    assert await value(client, "evaluate", "repository.All.Where(o => o.Total > 100).Count()") == \
        str(sum(1 for t in TOTALS if t > 100))
    # Refused by name, and nothing ran.
    assert "System.Collections.Generic.List.RemoveAt" in await refused(client, f"{ORDERS}.RemoveAt(0)")
    assert "System.IO.File.WriteAllText" in await refused(client, f'System.IO.File.WriteAllText("{probe}", "x")')
    assert "Dictionary.TryGetValue" in await refused(client, "repository._byId.TryGetValue(7, out var o)")
    assert not probe.exists()
    assert await value(client, "evaluate", f"{ORDERS}.Count") == "10000"

    # Run on purpose: the reads after it are fresh, and out arguments come back from the debuggee.
    await call_ok(client, "evaluate_with_calls", expression=f"{ORDERS}.RemoveAt(0)")
    assert await value(client, "evaluate", f"{ORDERS}.Count") == "9999"
    assert await value(client, "evaluate", f"{ORDERS}[0].Id") == "2"
    assert await value(client, "evaluate_with_calls", "repository._byId.TryGetValue(7, out var o) ? o.Total : -1m") == "7.25"
    assert await value(client, "evaluate_with_calls", "repository._byId.TryGetValue(70000, out var o) ? o.Total : -1m") == "-1"

    await call_ok(client, "debug_continue", wait=False)
    request.join(60)
    assert answers and answers[0].status == 200, answers
    assert http_get(port, "/orders/count").body == "9999"  # the app's own account
    await call_ok(client, "debug_disconnect")
