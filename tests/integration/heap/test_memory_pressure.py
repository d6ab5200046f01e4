"""A heap graph under a memory cgroup's limit (a container's, a CI job's): the analysis sees
the limit, keeps its arrays on disk, says so and answers as it does unconstrained, instead of
being killed by the kernel. The cgroup is made for the test and removed after (needs root,
as CI runs; no cgroup is a failure, not a skip)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.memory_cgroup import MemoryCgroup, memory_cgroup
from support.targets import running_target, wait_for_file

from pyinspect.heap import create_dump

# An app-shaped heap: analysed in memory it peaks at about 250 MiB (218 at 5M objects). The limit
# is below that and above the analysing process's own needs with its arrays on disk (3M objects
# still completed at 140 MiB, slowed by reclaim; at 115 MiB on 2M objects the runtime itself no
# longer fits and thrashes).
OBJECTS = 6_000_000
LIMIT = 180 << 20


def _retained(dump: Path, group: MemoryCgroup) -> subprocess.CompletedProcess[str]:
    """`pyinspect heap retained --top 20` of the dump, run inside group."""
    command = [sys.executable, "-m", "pyinspect", "heap", "retained", "--top", "20", "--dump", str(dump), "--json"]
    return subprocess.run(group.wrap(command), check=False, capture_output=True, text=True, timeout=120)


def test_a_graph_beyond_its_cgroup_limit_goes_to_disk_and_answers_the_same(tmp_path: Path) -> None:
    ready = tmp_path / "ready.json"
    with running_target("HeapTruth", "app", str(OBJECTS), str(ready)) as proc:
        wait_for_file(ready, timeout=60, proc=proc)
        dump = create_dump(proc.pid, tmp_path / "app.dmp")
    try:
        with memory_cgroup(None) as free:
            unconstrained = _retained(dump, free)
            free_peak = free.peak()
        with memory_cgroup(LIMIT) as tight:
            constrained = _retained(dump, tight)
            kills = tight.oom_kills()
    finally:
        dump.unlink(missing_ok=True)
    assert not free.folder.exists() and not tight.folder.exists()
    assert unconstrained.returncode == 0, unconstrained.stderr
    assert "did not fit" not in unconstrained.stderr
    assert free_peak > LIMIT, f"in memory the graph peaked at {free_peak} bytes: the limit would not press it"
    assert (constrained.returncode, kills) == (0, 0), constrained.stderr
    assert "the graph did not fit in memory: its arrays were in files under" in constrained.stderr
    assert json.loads(constrained.stdout) == json.loads(unconstrained.stdout)
