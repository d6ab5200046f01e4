"""Whole-graph files: a HeapGraphTruth graph saved, then read back without the target, must
answer stats, retained sizes, dominators and retention paths exactly as the live graph and
the construction do; damaged files are refused with a coded error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyinspect.cli import app
from pyinspect.errors import InvalidParameterError
from pyinspect.heap import HeapReader
from pyinspect.heap.graph import HeapGraph
from pyinspect.heap.graph_file import GraphFile, is_graph_file, load_snapshot
from pyinspect.heap.snapshot import diff

ENTRIES = [("tree", "a"), ("tree", "d"), ("diamond", "top"), ("diamond", "shared"), ("diamond", "leaf"),
           ("cycle", "c2"), ("array", "third")]


@pytest.fixture(scope="module")
def saved(truth_run: tuple[int, dict[str, Any], Path], tmp_path_factory: pytest.TempPathFactory,
          ) -> Iterator[tuple[HeapGraph, GraphFile]]:
    pid, _, _ = truth_run
    with HeapReader.attach(pid) as reader:
        graph = reader.graph()
        path = graph.save_graph(tmp_path_factory.mktemp("graphfile") / "truth.graph")
        yield graph, GraphFile.load(path)


def test_stats_and_summary_equal_the_live_graph(saved: tuple[HeapGraph, GraphFile]) -> None:
    graph, file = saved
    assert file.summary() == graph.summary()
    for which in ("all", "live", "dead"):
        assert file.stats(which) == graph.stats(which)
    assert diff(graph.snapshot(), file.snapshot()) == []


def test_retained_sizes_and_dominators_equal_construction(saved: tuple[HeapGraph, GraphFile],
                                                          truth: dict[str, Any]) -> None:
    graph, file = saved
    addresses = [truth[g][n]["address"] for g, n in ENTRIES] + [truth["garbage"]["address"]]
    assert file.retained(addresses) == graph.retained(addresses)
    for (g, n), row in zip(ENTRIES, file.retained(addresses), strict=False):
        assert (row.retained_size, row.dominator) == (truth[g][n]["retained"], truth[g][n]["dominator"])


def test_paths_from_the_file_are_the_shortest_with_their_roots(saved: tuple[HeapGraph, GraphFile],
                                                               truth: dict[str, Any]) -> None:
    graph, file = saved
    diamond = truth["diamond"]
    path = file.paths(diamond["leaf"]["address"]).paths[0]
    assert (path.root.kind, path.root.name) == ("static", "HeapGraphTruth.Roots.Diamond")
    steps = [s.address for s in path.steps]
    assert steps[0] == diamond["top"]["address"] and steps[2:] == [diamond["shared"]["address"], diamond["leaf"]["address"]]
    assert steps[1] in (diamond["left"]["address"], diamond["right"]["address"])
    assert all(s.field is None for s in path.steps)  # field names need the target's types
    for key in ("onlyStatic", "strongHandle", "pinnedHandle", "stackOnly", "threadLocal", "finalizer"):
        live, saved_paths = graph.paths(truth[key]["address"]), file.paths(truth[key]["address"])
        assert [p.root for p in saved_paths.paths] == [p.root for p in live.paths]
        assert [[s.address for s in p.steps] for p in saved_paths.paths] == [[s.address for s in p.steps] for p in live.paths]


def test_the_garbage_island_is_unreachable_after_a_complete_search(saved: tuple[HeapGraph, GraphFile],
                                                                   truth: dict[str, Any]) -> None:
    paths = saved[1].paths(truth["garbage"]["address"])
    assert (paths.reachable, paths.complete, paths.paths) == (False, True, ())


def test_damaged_or_foreign_files_are_refused(saved: tuple[HeapGraph, GraphFile], tmp_path: Path) -> None:
    graph, file = saved
    whole = file.path.read_bytes()
    cut = tmp_path / "cut.graph"
    cut.write_bytes(whole[: len(whole) - 3])
    per_type = graph.snapshot().save(tmp_path / "types.snap")
    assert is_graph_file(file.path) and not is_graph_file(per_type)
    for bad in (cut, per_type, tmp_path / "missing.graph"):
        with pytest.raises(InvalidParameterError, match="not a pyinspect heap graph file"):
            GraphFile.load(bad)
    with pytest.raises(InvalidParameterError, match="no object starts at"):
        file.paths(1)


def test_cli_saves_the_whole_graph_and_diffs_it_against_a_per_type_snapshot(
        truth_run: tuple[int, dict[str, Any], Path], tmp_path: Path) -> None:
    _, _, dump = truth_run
    whole, per_type = tmp_path / "a.graph", tmp_path / "b.snap"
    for out, extra in ((whole, ["--graph"]), (per_type, [])):
        result = CliRunner().invoke(app, ["heap", "snapshot", "-o", str(out), "--dump", str(dump), *extra])
        assert result.exit_code == 0, result.output
    assert is_graph_file(whole) and not is_graph_file(per_type)
    result = CliRunner().invoke(app, ["heap", "diff", str(whole), str(per_type), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == []
    assert GraphFile.load(whole).snapshot().types == load_snapshot(per_type).types
