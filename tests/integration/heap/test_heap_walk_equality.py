"""Our own heap walk (PyInspect.Heap's SegmentWalker) yields exactly ClrMD's objects
(address, type, size) and references, object by object, on HeapGraphTruth, HeapTruth,
LeakStory and the web app, live and from a createdump dump of each; a dump whose object
header was zeroed is walked up to there and the graph says it is incomplete."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from heaptruth import TruthTarget
from support.targets import running_target, wait_for_file, wait_until_reading_input
from support.walk_check import assert_walks_equal, compare_walks, zeroed_copy
from support.webapp import free_port, url_args, wait_until_serving

from pyinspect.heap import HeapReader, create_dump


def both(pid: int, dump: Path) -> Iterator[HeapReader]:
    """The process (held stopped: both walks must see the same heap) and its dump."""
    for reader in (HeapReader.attach(pid, suspend=True), HeapReader.open_dump(dump)):
        with reader:
            yield reader


def test_heapgraphtruth_live_and_dump(truth_run: tuple[int, dict[str, Any], Path]) -> None:
    pid, _, dump = truth_run
    for reader in both(pid, dump):
        assert_walks_equal(reader)


def test_heaptruth_live_and_dump(truth_target: TruthTarget) -> None:
    for reader in both(truth_target.pid, truth_target.dump):
        assert_walks_equal(reader)


def test_leakstory_live_and_dump(tmp_path: Path) -> None:
    with running_target("LeakStory", str(tmp_path / "status.json")) as proc:
        wait_for_file(tmp_path / "status.json", timeout=60, proc=proc)
        wait_until_reading_input(proc.pid)  # the status is written before its writer has returned
        dump = create_dump(proc.pid, tmp_path / "leakstory.dmp")
        for reader in both(proc.pid, dump):
            assert_walks_equal(reader)


def test_webapp_live_and_dump(tmp_path: Path) -> None:
    port = free_port()
    with running_target("WebApp", *url_args(port)) as proc:
        wait_until_serving(port, proc=proc)
        dump = create_dump(proc.pid, tmp_path / "webapp.dmp")
        for reader in both(proc.pid, dump):
            assert_walks_equal(reader)


def test_a_zeroed_object_header_stops_that_segment_and_the_graph_says_incomplete(
        truth_run: tuple[int, dict[str, Any], Path], tmp_path: Path) -> None:
    _, truth, dump = truth_run
    victim = int(truth["tree"]["c"]["address"], 16)
    with HeapReader.open_dump(dump) as reader:
        whole = assert_walks_equal(reader)
    broken = zeroed_copy(dump, victim, 16, tmp_path / "broken.dmp")
    with HeapReader.open_dump(broken) as reader:
        result = compare_walks(reader)
        # ClrMD's walk meets the same untyped object and stops that segment too
        assert (result["differences"], result["clrmdUntyped"]) == ([], 1)
        assert len(result["problems"]) == 1 and f"walk stopped at 0x{victim:016X}: no MethodTable" in result["problems"][0]
        assert result["objects"] < whole["objects"]
        graph = reader.graph()
        assert graph.summary().unreadable_objects == 1
        # b (allocated before c) is still there, its parent a (after c) is not: no path, and
        # the answer must not claim b unreachable
        paths = graph.paths(truth["tree"]["b"]["address"])
        assert (paths.reachable, paths.complete) == (False, False)
