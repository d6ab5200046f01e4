"""The busy web app (tests/targets/WebApp, ASP.NET Core on .NET 10) under load is healthy:
diagnose, live (with a recording of its GCs under the load) and from a dump taken under the
same load, has nothing above "info"."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from support.webapp import http_get, serving_webapp

from pyinspect.heap.reader import create_dump
from pyinspect.session.diagnosis import diagnose_dump, diagnose_process

pytestmark = pytest.mark.timeout(300)
PATHS = ["/orders/{i}", "/orders/{i}/total", "/orders/{i}/summary", "/orders/count", "/fail/sync?id={i}"]


def _load(port: int, stop: threading.Event, served: list[int]) -> None:
    i = 0
    while not stop.is_set():
        i += 1
        try:
            served.append(http_get(port, PATHS[i % len(PATHS)].format(i=i % 5 + 1), timeout=10).status)
        except OSError:
            served.append(0)


def test_a_busy_web_app_has_no_finding_above_info(tmp_path: Path) -> None:
    dump = tmp_path / "webapp.dmp"
    stop, served = threading.Event(), [[] for _ in range(4)]
    with serving_webapp() as (proc, port):
        clients = [threading.Thread(target=_load, args=(port, stop, s), daemon=True) for s in served]
        for client in clients:
            client.start()
        try:
            while sum(len(s) for s in served) < 200:
                stop.wait(0.05)
            live = diagnose_process(proc.pid, record_seconds=2.0)  # its GCs under load too
            create_dump(proc.pid, dump)
        finally:
            stop.set()
            for client in clients:
                client.join(timeout=15)
    try:
        from_dump = diagnose_dump(dump)
    finally:
        dump.unlink(missing_ok=True)
    assert sum(status == 200 for s in served for status in s) >= 150  # it was serving, under load
    for answer in (live, from_dump):
        assert all(f.severity == "info" for f in answer.findings), [(f.kind, f.statement) for f in answer.findings]
        assert len(answer.checked) >= 7
    assert "gc-pressure" in live.checked
