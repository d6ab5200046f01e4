"""The heap graph against HeapGraphTruth: dominators, retained sizes, roots and paths
known by construction (sizes measured by the debuggee from its MethodTables), read live
and from a createdump dump of the same process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pyinspect.heap import HeapReader
from pyinspect.heap.graph import HeapGraph

GRAPHS = {"tree": ["a", "b", "c", "d"], "diamond": ["top", "left", "right", "shared", "leaf"],
          "cycle": ["c1", "c2", "c3"], "array": ["array", "third"]}
SINGLES = ["onlyStatic", "strongHandle", "pinnedHandle", "stackOnly", "threadLocal", "finalizer"]


@pytest.fixture(scope="module", params=["live", "dump"])
def graph(request: pytest.FixtureRequest, truth_run: tuple[int, dict[str, Any], Path]) -> Iterator[HeapGraph]:
    pid, _, dump = truth_run
    reader = HeapReader.attach(pid) if request.param == "live" else HeapReader.open_dump(dump)
    try:
        yield reader.graph()
    finally:
        reader.close()


def _entries(truth: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    rows = [(f"{g}.{n}", truth[g][n]) for g, names in GRAPHS.items() for n in names]
    return rows + [(k, truth[k]) for k in SINGLES]


def test_retained_sizes_and_dominators_equal_construction(graph: HeapGraph, truth: dict[str, Any]) -> None:
    entries = _entries(truth)
    got = graph.retained([e["address"] for _, e in entries])
    for (name, expected), row in zip(entries, got, strict=True):
        assert (name, row.address, row.type, row.size) == (name, expected["address"], expected["type"], expected["size"])
        assert (name, row.retained_size, row.dominator, row.live) == (name, expected["retained"], expected["dominator"], True)


def test_garbage_island_is_dead_and_unreachable_after_a_complete_search(graph: HeapGraph, truth: dict[str, Any]) -> None:
    island = truth["garbage"]
    row = graph.retained([island["address"]])[0]
    assert (row.live, row.dominator, row.retained_size) == (False, None, 0)
    paths = graph.paths(island["address"])
    assert (paths.reachable, paths.complete, paths.paths) == (False, True, ())
    dead = {s.type: s for s in graph.stats("dead")}
    assert dead["HeapGraphTruth.Node"].count >= 2


@pytest.mark.parametrize(("key", "kind", "name"), [
    ("onlyStatic", "static", "HeapGraphTruth.Roots.OnlyStatic"),
    ("strongHandle", "handle", "Strong handle"),
    ("pinnedHandle", "pinned", "Pinned handle"),
    ("stackOnly", "stack", "thread 1: Program.<Main>$"),
    ("finalizer", "finalizer", "finalizer queue"),
])
def test_each_root_kind_holds_its_object(graph: HeapGraph, truth: dict[str, Any], key: str, kind: str, name: str) -> None:
    paths = graph.paths(truth[key]["address"])
    first = paths.paths[0]
    assert (paths.complete, paths.reachable, first.root.kind) == (True, True, kind)
    assert first.root.name.startswith(name)
    assert [s.address for s in first.steps] == [truth[key]["address"]]


def test_a_threads_local_roots_its_object_with_thread_its_name_and_frame(graph: HeapGraph,
                                                                         truth: dict[str, Any]) -> None:
    local = truth["threadLocal"]
    root = graph.paths(local["address"]).paths[0].root
    assert root.kind == "stack" and root.thread is not None and root.thread > 0
    assert root.local is None  # the heap alone knows the slot, not its name
    assert local["threadName"] == "holder"
    assert root.name == f"thread {local['managedThreadId']} 'holder': " \
        "HeapGraphTruth.Graphs.HoldOnStack(System.Threading.ManualResetEventSlim)"


def test_shortest_path_names_every_step(graph: HeapGraph, truth: dict[str, Any]) -> None:
    diamond = truth["diamond"]
    path = graph.paths(diamond["leaf"]["address"]).paths[0]
    assert (path.root.kind, path.root.name) == ("static", "HeapGraphTruth.Roots.Diamond")
    steps = [(s.address, s.field) for s in path.steps]
    assert steps[0] == (diamond["top"]["address"], None)
    assert steps[1] in [(diamond["left"]["address"], "Left"), (diamond["right"]["address"], "Right")]
    assert steps[2:] == [(diamond["shared"]["address"], "Left"), (diamond["leaf"]["address"], "Left")]


def test_array_steps_are_named_by_index(graph: HeapGraph, truth: dict[str, Any]) -> None:
    path = graph.paths(truth["array"]["third"]["address"]).paths[0]
    assert path.root.name == "HeapGraphTruth.Roots.Array"
    assert [(s.address, s.field) for s in path.steps] == [
        (truth["array"]["array"]["address"], None), (truth["array"]["third"]["address"], "[2]")]


def test_top_retainers_and_per_type_retained_agree_with_objects(graph: HeapGraph, truth: dict[str, Any]) -> None:
    top = graph.retained(top=10)
    assert [r.retained_size for r in top] == sorted((r.retained_size for r in top), reverse=True)
    assert all(r.live for r in top)
    node = next(t for t in graph.retained_by_type() if t.type == "HeapGraphTruth.Node")
    roots = [truth[g][names[0]] for g, names in GRAPHS.items() if g != "array"]
    roots += [truth[k] for k in SINGLES if truth[k]["type"] == "HeapGraphTruth.Node"]
    array_nodes = 3 * truth["array"]["third"]["size"]  # dominated by the object[], not by a Node
    assert node.retained_size == sum(e["retained"] for e in roots) + array_nodes


def test_instances_are_paged_in_address_order(graph: HeapGraph, truth: dict[str, Any]) -> None:
    every = graph.instances("HeapGraphTruth.Node", 0, 1000)
    addresses = {e["address"] for _, e in _entries(truth) if e["type"] == "HeapGraphTruth.Node"}
    assert addresses <= {i.address for i in every}
    assert graph.instances("HeapGraphTruth.Node", 2, 3) == every[2:5]


def test_the_snapshot_read_every_object_reference_and_stack(graph: HeapGraph) -> None:
    summary = graph.summary()
    assert (summary.unreadable_objects, summary.unresolved_references, summary.skipped_threads) == (0, 0, 0)
    assert summary.live_objects + summary.dead_objects == summary.objects
