"""One MemoryTruth debuggee per module, read live and from a createdump dump of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from memory_truth import MemoryTarget
from support.targets import read_truth, running_target, wait_for_file

from pyinspect.heap import HeapReader, create_dump


@pytest.fixture(scope="module")
def memory_target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryTarget]:
    folder = tmp_path_factory.mktemp("memorytruth")
    truth_file = folder / "truth.json"
    with running_target("MemoryTruth", str(truth_file)) as proc:
        wait_for_file(truth_file, timeout=30, proc=proc)
        truth = read_truth(truth_file)
        dump = create_dump(proc.pid, folder / "memorytruth.dmp")
        yield MemoryTarget(proc.pid, truth, dump)
    dump.unlink(missing_ok=True)


@pytest.fixture(scope="module", params=["live", "dump"])
def reader(request: pytest.FixtureRequest, memory_target: MemoryTarget) -> Iterator[HeapReader]:
    if request.param == "live":
        opened = HeapReader.attach(memory_target.pid)
    else:
        opened = HeapReader.open_dump(memory_target.dump)
    try:
        yield opened
    finally:
        opened.close()
