"""A heap graph's build stopped after its walk, in the dominator pass: the helper stops that
phase at its next checkpoint, frees every array of the build (its files in the work folder,
unlinked as soon as made, unmapped and closed), says where it stopped, and the next build of the
same heap answers in full. Read from a dump, so the build runs in the dump reader process
(heap.dump_child) and what it holds shows in that process's maps and open files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.targets import running_target, wait_for_file

from pyinspect.heap import HeapReader, create_dump
from pyinspect.heap.stepping import BuildCancelled

OBJECTS = 2_000_000  # an app-shaped heap (HeapTruth app): its dominator pass alone takes a while
PHASES = ["the trimming of the walk's arrays", "the address index", "reference resolution", "the dominator pass"]


def _work_files(pid: int, folder: Path) -> int:
    """How many of pid's mappings and open files are files of folder."""
    maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
    fds = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    return sum(str(folder) in line for line in maps + fds)


def test_a_build_cancelled_in_the_dominator_pass_frees_its_arrays_and_the_next_build_answers(tmp_path: Path) -> None:
    ready, work = tmp_path / "ready.json", tmp_path / "work"
    work.mkdir()
    with running_target("HeapTruth", "app", str(OBJECTS), str(ready)) as proc:
        wait_for_file(ready, timeout=60, proc=proc)
        customers = json.loads(ready.read_text())["customers"]
        dump = create_dump(proc.pid, tmp_path / "app.dmp")
    phases: list[str] = []
    held_then: list[int] = []
    try:
        with HeapReader.open_dump(dump) as reader:
            pid = reader.reader_pid
            assert pid is not None

            def stop_in_the_dominator_pass(walked: int, total: int, phase: str | None = None) -> None:
                if phase is not None:
                    phases.append(phase)
                if phase == "the dominator pass":  # reported as it starts (the helper answers at once)
                    held_then.append(_work_files(pid, work))
                    raise BuildCancelled("stop")

            # "after": the pass ended before the cancel reached it (it starts no next phase meanwhile)
            stopped = r"the heap walk had ended \([\d,]+ bytes\); building the graph stopped (during|after) the " \
                      r"dominator pass$"
            with pytest.raises(BuildCancelled, match=stopped):
                reader.graph(stop_in_the_dominator_pass, str(work), memory_limit=1)
            assert list(dict.fromkeys(phases)) == PHASES
            assert held_then[0] > 0  # its arrays were files of the work folder, mapped and open
            assert _work_files(pid, work) == 0  # all unmapped and closed by the cancel
            graph = reader.graph(None, str(work), memory_limit=1)  # built again, in full
            assert graph.summary().work_folder == str(work)
            counts = {row.type: row.count for row in graph.stats()}
            assert counts["HeapTruth.Customer"] == customers
            assert reader.reader_pid == pid  # the same dump reader: the opened dump was kept
    finally:
        dump.unlink(missing_ok=True)
    assert list(work.iterdir()) == []
