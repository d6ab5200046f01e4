"""suspend=True freezes the process while attached and leaves it running after close."""

from __future__ import annotations

from pathlib import Path

from heaptruth import TruthTarget

from pyinspect.heap import HeapReader


def tracer_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("TracerPid:"):
            return int(line.split()[1])
    raise AssertionError("no TracerPid line")


def stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("t", "T")


def test_suspended_attach_stops_the_process_and_close_releases_it_even_after_flush(
        truth_target: TruthTarget) -> None:
    pid = truth_target.pid
    assert tracer_of(pid) == 0
    reader = HeapReader.attach(pid, suspend=True)
    try:
        assert tracer_of(pid) != 0 and stopped(pid)
        reader.flush()
        assert reader.object(truth_target.truth["dog"]["address"]).type_name == "HeapTruth.Dog"
    finally:
        reader.close()
    assert tracer_of(pid) == 0 and not stopped(pid)


def test_live_attach_does_not_stop_the_process(truth_target: TruthTarget) -> None:
    with HeapReader.attach(truth_target.pid) as reader:
        assert tracer_of(truth_target.pid) == 0 and not stopped(truth_target.pid)
        reader.flush()
        assert reader.stats()
