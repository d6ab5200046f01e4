"""One HeapTruth (and HeapGraphTruth) debuggee per module, read live and from a createdump dump of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from heaptruth import TruthTarget
from support.targets import read_truth, running_target, wait_for_file

from pyinspect.heap import HeapReader, create_dump


@pytest.fixture(scope="module")
def truth_target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TruthTarget]:
    folder = tmp_path_factory.mktemp("heaptruth")
    truth_file = folder / "truth.json"
    with running_target("HeapTruth", str(truth_file)) as proc:
        wait_for_file(truth_file, timeout=30, proc=proc)
        truth = read_truth(truth_file)
        dump = create_dump(proc.pid, folder / "heaptruth.dmp")
        yield TruthTarget(proc.pid, truth, dump)
    dump.unlink(missing_ok=True)


@pytest.fixture(scope="module", params=["live", "dump"])
def reader(request: pytest.FixtureRequest, truth_target: TruthTarget) -> Iterator[HeapReader]:
    if request.param == "live":
        opened = HeapReader.attach(truth_target.pid)
    else:
        opened = HeapReader.open_dump(truth_target.dump)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(scope="module")
def truth_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, dict[str, Any], Path]]:
    """A HeapGraphTruth process (pid), its truth, and a dump of it."""
    folder = tmp_path_factory.mktemp("heapgraphtruth")
    truth_file = folder / "truth.json"
    with running_target("HeapGraphTruth", str(truth_file)) as proc:
        wait_for_file(truth_file, timeout=60, proc=proc)
        dump = create_dump(proc.pid, folder / "heapgraphtruth.dmp")
        yield proc.pid, read_truth(truth_file), dump
    dump.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def truth(truth_run: tuple[int, dict[str, Any], Path]) -> dict[str, Any]:
    """HeapGraphTruth's own account of its objects (truth_run's)."""
    return truth_run[1]
