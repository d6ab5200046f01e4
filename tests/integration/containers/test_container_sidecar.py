"""pyinspect as a sidecar: in a mount namespace of its own (its own /tmp) sharing only the
pid namespace with the app's container (Kubernetes `kubectl debug --target`,
`shareProcessNamespace`). The same code reaches the app through /proc/PID/root."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from container_targets import TRUTH
from support.containers import (
    container_apps,
    in_other_mount_namespace,
    running_container,
    wait_for_inside_file,
)


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
