"""Bad inputs become pyinspect errors with the right code, and the target lives on."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from heaptruth import TruthTarget

from pyinspect.errors import (
    DepthExceededError,
    DumpError,
    ErrorCode,
    InvalidParameterError,
    NotAnObjectError,
    NotDotNetProcessError,
    ProcessNotFoundError,
)
from pyinspect.heap import HeapReader, create_dump


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(["sleep", "30"])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=10)


def unused_pid() -> int:
    pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    for pid in range(pid_max - 1, 1, -1):
        if not Path(f"/proc/{pid}").exists():
            return pid
    raise AssertionError("no free pid")


def test_unknown_pid_is_process_not_found() -> None:
    with pytest.raises(ProcessNotFoundError) as caught:
        HeapReader.attach(unused_pid())
    assert caught.value.code == ErrorCode.PROCESS_NOT_FOUND


def test_process_without_dotnet_is_not_dotnet_and_keeps_running(sleeper: subprocess.Popen[bytes]) -> None:
    with pytest.raises(NotDotNetProcessError) as caught:
        HeapReader.attach(sleeper.pid)
    assert caught.value.code == ErrorCode.NOT_DOTNET_PROCESS
    assert caught.value.context["pid"] == sleeper.pid
    assert sleeper.poll() is None


def test_missing_dump_path_is_dump_error(tmp_path: Path) -> None:
    with pytest.raises(DumpError) as caught:
        HeapReader.open_dump(tmp_path / "missing.dmp")
    assert caught.value.code == ErrorCode.DUMP_ERROR


def test_file_that_is_not_a_dump_is_dump_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.dmp"
    bogus.write_bytes(b"this is not a core file" * 100)
    with pytest.raises(DumpError) as caught:
        HeapReader.open_dump(bogus)
    assert caught.value.code == ErrorCode.DUMP_ERROR
    assert "pythonnet" not in str(caught.value) and "Traceback" not in str(caught.value)


def test_dump_of_unknown_pid_is_process_not_found(tmp_path: Path) -> None:
    with pytest.raises(ProcessNotFoundError):
        create_dump(unused_pid(), tmp_path / "x.dmp")


def test_addresses_that_are_not_objects_are_not_an_object(truth_target: TruthTarget) -> None:
    dog = int(truth_target.truth["dog"]["address"], 16)
    with HeapReader.attach(truth_target.pid) as reader:
        for address in (0x10, dog + 4, 0x7FFF_FFFF_F000):
            with pytest.raises(NotAnObjectError) as caught:
                reader.object(address)
            assert caught.value.code == ErrorCode.NOT_AN_OBJECT
            assert caught.value.context["address"] == hex(address)
        # the reader still works after the failures
        assert reader.object(dog).type_name == "HeapTruth.Dog"


def test_depth_out_of_range_and_non_string_are_rejected(truth_target: TruthTarget) -> None:
    with HeapReader.attach(truth_target.pid) as reader:
        with pytest.raises(DepthExceededError) as caught:
            reader.object(truth_target.truth["dog"]["address"], depth=11)
        assert caught.value.code == ErrorCode.DEPTH_EXCEEDED
        with pytest.raises(InvalidParameterError):
            reader.object(truth_target.truth["dog"]["address"], depth=0)
        with pytest.raises(NotAnObjectError):
            reader.read_string(truth_target.truth["dog"]["address"])
