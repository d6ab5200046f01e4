"""pyinspect as a sidecar: in a mount namespace of its own (its own /tmp) sharing only the
pid namespace with the app's container (Kubernetes `kubectl debug --target`,
`shareProcessNamespace`). The same code reaches the app through /proc/PID/root."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from container_targets import TRUTH, ContainerTarget
from support.adapter_session import ok, set_breakpoints, top_frame
from support.containers import (
    container_apps,
    in_other_mount_namespace,
    running_container,
    sidecar_prefix,
    wait_for_inside_file,
)
from support.dap_wire import WirePeer
from support.targets import marker_line


def test_a_sidecar_lists_reads_the_heap_of_and_dumps_an_app_in_another_mount_namespace(tmp_path: Path) -> None:
    app = container_apps()[0]
    cli = str(Path(sys.executable).parent / "pyinspect")
    with running_container(app, tmp_path, TRUTH, pid_namespace=False) as container:
        truth = json.loads(wait_for_inside_file(container, TRUTH))
        assert truth["pid"] == container.pid, "one pid namespace: the app has the same pid on both sides"
        listed = in_other_mount_namespace(cli, "ps", "--json")
        assert listed.returncode == 0, listed.stderr
        row = next(p for p in json.loads(listed.stdout) if p["pid"] == container.pid)
        assert (row["namespacePid"], row["inContainer"], row["canReadHeap"], row["canDebug"]) == (
            container.pid, True, True, True)
        assert row["runtime"]["targetFolder"] == "/app"
        stats = in_other_mount_namespace(cli, "heap", "stats", "--pid", str(container.pid), "--json")
        assert stats.returncode == 0, stats.stderr
        counts = {r["type"]: r["count"] for r in json.loads(stats.stdout)}
        assert counts["MemoryTruth.Bag"] == 1
        assert counts[truth["customer"]["typeName"]] >= 1
        dumped = in_other_mount_namespace("sh", "-c", f'{cli} heap dump --pid {container.pid} -o /tmp/s.dmp && '
                                          f'{cli} heap stats --dump /tmp/s.dmp --dac /proc/{container.pid}/root/app/'
                                          'libmscordaccore.so --json')
        assert dumped.returncode == 0, dumped.stderr
        written, rows = dumped.stdout.split("\n", 1)
        assert written == "/tmp/s.dmp"
        from_dump = {r["type"]: r["count"] for r in json.loads(rows)}
        assert from_dump == counts


def test_a_sidecar_adapter_attaches_breaks_evaluates_and_detaches(tmp_path: Path) -> None:
    app = container_apps()[0]
    with running_container(app, tmp_path, TRUTH, pid_namespace=False) as container:
        target = ContainerTarget(app, container, json.loads(wait_for_inside_file(container, TRUTH)))
        peer = WirePeer("--interpreter=vscode", prefix=sidecar_prefix())
        try:
            ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
            ok(peer.request("attach", {"processId": container.pid}, timeout=60))
            assert [b["verified"] for b in set_breakpoints(peer, "MemoryTruth", ["echo"])] == [True]
            ok(peer.request("configurationDone"))
            target.send_line("from the sidecar")
            stopped = peer.wait_event("stopped", timeout=60)["body"]
            frame = top_frame(peer, stopped["threadId"])
            assert frame["line"] == marker_line("MemoryTruth", "echo")
            body = ok(peer.request("evaluate", {"expression": "line", "frameId": frame["id"]}, timeout=60))
            assert body["result"] == '"from the sidecar"'
            ok(peer.request("disconnect", {}))
            peer.proc.wait(timeout=30)
        finally:
            peer.close()
        assert target.echoed("from the sidecar") and target.echo("after the sidecar detached")
