"""pyinspect's DAP client driving our adapter attached to DebuggeeLoop: threads, pause,
continue, detach, and an adapter killed under a waiting request."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from support.debuggee_loop import counter_moves, counting_loop

from pyinspect.dap.adapter import AdapterProcess, start_adapter
from pyinspect.errors import AdapterDiedError, RequestFailedError


@pytest.fixture
def debuggee(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with counting_loop(tmp_path) as (proc, counter):
        yield proc.pid, counter
        assert proc.poll() is None, "the client must never kill an attached debuggee"


@pytest.fixture
def adapter() -> Iterator[AdapterProcess]:
    process = start_adapter()
    yield process
    process.close()


def attach(adapter: AdapterProcess, pid: int) -> None:
    client = adapter.client
    assert client.initialize()["supportsConfigurationDoneRequest"] is True
    client.wait_event("initialized", timeout=10)
    client.attach(pid)
    client.configuration_done()


def test_client_pauses_lists_threads_and_continues(adapter: AdapterProcess, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(adapter, pid)
    client = adapter.client
    client.pause()
    stopped = client.wait_event("stopped", timeout=10)["body"]
    assert stopped["reason"] == "pause"
    assert not counter_moves(counter)
    threads = client.threads()
    assert len(threads) >= 2 and all(isinstance(t["id"], int) for t in threads)  # main and Spinner
    client.continue_(stopped["threadId"])
    assert counter_moves(counter)


def test_a_request_that_needs_a_stop_fails_cleanly_while_running(adapter: AdapterProcess,
                                                                 debuggee: tuple[int, Path]) -> None:
    attach(adapter, debuggee[0])
    with pytest.raises(RequestFailedError, match="running|not stopped"):
        adapter.client.continue_(0)


def test_disconnect_detaches_and_the_debuggee_runs_on(adapter: AdapterProcess, debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(adapter, pid)
    adapter.client.pause()
    adapter.client.wait_event("stopped", timeout=10)
    adapter.client.disconnect(terminate_debuggee=False)
    adapter.close()
    assert counter_moves(counter)


def test_killing_the_adapter_fails_the_waiting_request_within_a_second(adapter: AdapterProcess,
                                                                      debuggee: tuple[int, Path]) -> None:
    pid, counter = debuggee
    attach(adapter, pid)
    adapter.client.pause()  # a full stop and resume: the attach has settled before the kill
    adapter.client.continue_(adapter.client.wait_event("stopped", timeout=10)["body"]["threadId"])
    assert counter_moves(counter)
    channel = adapter.client.channel
    waiting = channel.send_request("threads")
    adapter.proc.kill()
    started = time.monotonic()
    with pytest.raises(AdapterDiedError):
        channel.request("threads", timeout=5)
    assert time.monotonic() - started < 1.0
    assert waiting.done()  # answered or failed, never left hanging
    # It lives on. (Whether it runs on depends on where the kill landed: an adapter killed
    # while the runtime waits for its Continue leaves the process stopped; reported.)
    assert psutil.Process(pid).status() not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
