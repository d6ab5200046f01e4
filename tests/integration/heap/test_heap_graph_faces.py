"""The heap graph's faces on HeapGraphTruth: `pyinspect heap retained|roots|instances|
strings|segments|finalizer|snapshot|diff` and `stats --live/--dead`, and the notebook."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import pyinspect
from pyinspect.cli import app
from pyinspect.errors import InvalidParameterError

Run = tuple[int, dict[str, Any], Path]


def _cli(*args: str) -> Any:
    result = CliRunner().invoke(app, ["heap", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_retained_gives_exact_sizes_live_and_from_the_dump(truth_run: Run) -> None:
    pid, truth, dump = truth_run
    top = truth["diamond"]["top"]
    for source in (["--pid", str(pid)], ["--dump", str(dump)]):
        rows = _cli("retained", top["address"], *source)
        assert rows == [{"address": top["address"], "type": "HeapGraphTruth.Node", "size": top["size"],
                         "retainedSize": top["retained"]}]


def test_cli_retained_top_and_by_type(truth_run: Run) -> None:
    pid = str(truth_run[0])
    top = _cli("retained", "--pid", pid, "--top", "5")
    assert len(top) == 5 and set(top[0]) == {"address", "type", "size", "retainedSize"}
    by_type = _cli("retained", "--pid", pid, "--by-type", "--top", "3")
    assert len(by_type) == 3 and set(by_type[0]) == {"type", "count", "totalSize", "retainedSize"}


def test_cli_roots_prints_named_paths(truth_run: Run) -> None:
    pid, truth, _ = truth_run
    found = _cli("roots", truth["tree"]["d"]["address"], "--pid", str(pid))
    first = found["paths"][0]
    assert (found["complete"], found["reachable"]) == (True, True)
    assert first["root"] == {"kind": "static", "name": "HeapGraphTruth.Roots.Tree", "thread": None, "local": None}
    assert [s["field"] for s in first["steps"]] == [None, "Left", "Left"]
    assert first["steps"][-1]["address"] == truth["tree"]["d"]["address"]


def test_cli_stats_live_and_dead_split_the_heap(truth_run: Run) -> None:
    pid = str(truth_run[0])
    every = {r["type"]: r for r in _cli("stats", "--pid", pid)}
    live = {r["type"]: r for r in _cli("stats", "--pid", pid, "--live")}
    dead = {r["type"]: r for r in _cli("stats", "--pid", pid, "--dead")}
    node = "HeapGraphTruth.Node"
    assert live[node]["count"] + dead[node]["count"] == every[node]["count"]
    assert set(live[node]) == {"type", "count", "totalSize"}


def test_cli_instances_strings_segments_finalizer(truth_run: Run) -> None:
    pid, truth, _ = truth_run
    nodes = _cli("instances", "HeapGraphTruth.Node", "--pid", str(pid), "--count", "500")
    assert truth["onlyStatic"]["address"] in {n["address"] for n in nodes}
    assert all(n["address"].startswith("0x") for n in nodes)
    strings = _cli("strings", "--pid", str(pid))
    assert all(s["count"] > 1 and s["wastedBytes"] == (s["count"] - 1) * s["size"] for s in strings)
    layout = _cli("segments", "--pid", str(pid))
    assert {g["generation"] for g in layout["generations"]} >= {"gen0"}
    assert all(0 <= g["fragmentation"] <= 1 for g in layout["generations"])
    assert sum(g["pinnedObjects"] for g in layout["generations"]) >= 1
    queue = {r["type"]: r for r in _cli("finalizer", "--pid", str(pid))}
    assert queue["HeapGraphTruth.Doomed"]["ready"] == 1


def test_cli_snapshot_and_diff(truth_run: Run, tmp_path: Path) -> None:
    pid, _, dump = truth_run
    a, b = tmp_path / "a.snap", tmp_path / "b.snap"
    for out, source in ((a, ["--pid", str(pid)]), (b, ["--dump", str(dump)])):
        written = _cli("snapshot", "-o", str(out), *source)
        assert written == {"path": str(out), "kind": "snapshot", "bytes": out.stat().st_size}
    graph_file = tmp_path / "whole.graph"
    assert _cli("snapshot", "--graph", "-o", str(graph_file), "--dump", str(dump))["kind"] == "graph"
    same = _cli("diff", str(a), str(a))
    assert same == []
    rows = _cli("diff", str(a), str(b))
    assert all(set(r) == {"type", "countDelta", "sizeDelta", "retainedDelta"} for r in rows)
    assert [r["sizeDelta"] for r in rows] == sorted((r["sizeDelta"] for r in rows), reverse=True)


def test_every_heap_command_takes_json() -> None:
    heap = next(group for group in app.registered_groups if group.name == "heap").typer_instance
    assert heap is not None
    for command in heap.registered_commands:
        result = CliRunner().invoke(app, ["heap", str(command.name), "--help"])
        assert "--json" in result.stdout, f"pyinspect heap {command.name} has no --json"


def test_cli_graph_errors_are_coded(truth_run: Run, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["heap", "roots", "0x10", "--pid", str(truth_run[0])])
    assert result.exit_code == 1 and "NOT_AN_OBJECT" in result.stderr
    bad = tmp_path / "bad.snap"
    bad.write_text("{}")
    result = CliRunner().invoke(app, ["heap", "diff", str(bad), str(bad)])
    assert result.exit_code == 1 and "INVALID_PARAMETER" in result.stderr


def test_notebook_graph_methods(truth_run: Run) -> None:
    pid, truth, _ = truth_run
    with pyinspect.open_heap(pid) as heap:
        live = heap.stats(progress=False, live=True)
        assert list(live.columns) == ["type", "count", "total_size"]
        retained = heap.retained([truth["cycle"]["c1"]["address"]])
        assert retained.loc[0, "retained_size"] == truth["cycle"]["c1"]["retained"]
        path = heap.path_to_root(truth["cycle"]["c3"]["address"])
        assert [s.address for s in path.paths[0].steps] == [
            truth["cycle"][k]["address"] for k in ("c1", "c2", "c3")]
        assert "address" in heap.instances("HeapGraphTruth.Node").columns
        assert heap.generations()["fragmentation"].between(0, 1).all()
        before = heap.snapshot()
        after = heap.snapshot()
        assert pyinspect.diff(before, after).empty


@pytest.mark.parametrize("which", ["live", "dead"])
def test_notebook_stats_live_dead_match_the_cli(truth_run: Run, which: str) -> None:
    pid = truth_run[0]
    cli = {r["type"]: r["count"] for r in _cli("stats", "--pid", str(pid), f"--{which}")}
    with pyinspect.open_heap(pid) as heap:
        frame = heap.stats(progress=False, live=which == "live")
    assert dict(zip(frame["type"], frame["count"], strict=True)) == cli


def test_a_graph_beyond_its_memory_limit_keeps_its_arrays_on_disk_and_says_so(truth_run: Run, tmp_path: Path) -> None:
    _, truth, dump = truth_run
    top = truth["diamond"]["top"]
    result = CliRunner().invoke(app, ["heap", "--work-folder", str(tmp_path), "--memory-limit", "1K", "retained",
                                      top["address"], "--dump", str(dump), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["retainedSize"] == top["retained"]
    assert f"its arrays were in files under {tmp_path}" in result.stderr
    with pyinspect.open_dump(dump) as heap:
        graph = heap.graph(progress=False, work_folder=str(tmp_path), memory_limit=1)
        assert graph.summary().work_folder == str(tmp_path)
        assert heap.retained([top["address"]]).loc[0, "retained_size"] == top["retained"]
    assert list(tmp_path.iterdir()) == []  # the files are unlinked as soon as they are mapped
    assert "did not fit" not in CliRunner().invoke(app, ["heap", "retained", "--dump", str(dump), "--top", "1"]).stderr


def test_every_face_bounds_its_rows_the_same_way(truth_run: Run) -> None:
    """One rule (pyinspect.session.row_limits): a count below 1 is INVALID_PARAMETER before any
    walk; a person (CLI, notebook) may ask for more rows than the MCP bound of 1000; a cut says
    so (the notebook's attrs["truncated"])."""
    pid = truth_run[0]
    for command in (["retained", "--top", "0"], ["strings", "--top", "-1"], ["instances", "X", "--count", "0"],
                    ["roots", "0x10", "--max-paths", "0"], ["stats", "--top", "0"]):
        result = CliRunner().invoke(app, ["heap", *command, "--pid", str(pid)])
        assert result.exit_code == 1 and "INVALID_PARAMETER" in result.stderr, (command, result.output)
    result = CliRunner().invoke(app, ["exceptions", "--limit", "0", "--pid", str(pid)])
    assert result.exit_code == 1 and "limit must be at least 1" in result.stderr, result.output
    with pyinspect.open_heap(pid) as heap:
        with pytest.raises(InvalidParameterError, match="top must be at least 1, got 0"):
            heap.retained(top=0)
        assert not heap.heaps.graph_ready()  # refused before the walk
        with pytest.raises(InvalidParameterError, match="limit must be at least 1, got 0"):
            heap.exceptions(limit=0)
        one = heap.retained(top=1)
        assert len(one) == 1 and one.attrs["truncated"] is True
        many = heap.retained(by_type=True, top=1001)  # above the MCP bound: a person may ask
        every = heap.retained(by_type=True, top=None)
        assert len(many) == min(1001, len(every))
        assert every.attrs["truncated"] is False and len(every) > 1
