"""One MemoryTruth debuggee per runtime (net8.0, net9.0 self-contained; net10.0 shared),
shared by the module's tests, with a dump made by the target runtime's own createdump."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest
from runtime_targets import RUNTIMES, RuntimeTarget, command
from support.targets import end_process, read_truth, wait_for_file

from pyinspect.heap import HeapReader, create_dump


@pytest.fixture(scope="module", params=RUNTIMES)
def runtime_target(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RuntimeTarget]:
    framework: str = request.param
    folder = tmp_path_factory.mktemp(f"runtime-{framework}")
    truth_file = folder / "truth.json"
    proc = subprocess.Popen(command(framework, str(truth_file)), stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file(truth_file, timeout=60, proc=proc)
        dump = create_dump(proc.pid, folder / "target.dmp")
        yield RuntimeTarget(framework, proc.pid, read_truth(truth_file), dump)
        assert proc.poll() is None, "the debuggee must still run after every test of its runtime"
    finally:
        end_process(proc)
        (folder / "target.dmp").unlink(missing_ok=True)


@pytest.fixture(scope="module")
def live_reader(runtime_target: RuntimeTarget) -> Iterator[HeapReader]:
    with HeapReader.attach(runtime_target.pid) as reader:
        yield reader


@pytest.fixture(scope="module")
def dump_reader(runtime_target: RuntimeTarget) -> Iterator[HeapReader]:
    with HeapReader.open_dump(runtime_target.dump) as reader:
        yield reader
