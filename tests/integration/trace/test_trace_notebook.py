"""The notebook face of a recording: ``pyinspect.record(pid)`` of a running process and
``with dbg.record() as rec:`` of a launched debug session give DataFrames that hold to
TraceTruth's truth, and the plots draw them: one mark per GC, one bar per type."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from pathlib import Path

import pytest
from support.targets import target_dll
from support.trace_truth import TraceTruthRun, assert_matches_truth, trace_truth

import pyinspect
from pyinspect.errors import InvalidParameterError, UnknownTypeError
from pyinspect.notebook.plots import plot_gc_pauses, plot_gc_timeline, plot_top_allocations

pytestmark = pytest.mark.timeout(300)


def _check_tables(rec: pyinspect.Recording, truth: dict[str, object]) -> None:
    answer = rec.stop()
    assert_matches_truth(answer.model_dump(by_alias=True), truth)
    allocations = rec.allocations()
    assert list(allocations.columns) == ["type", "estimated_bytes", "estimated_count", "samples", "top_method",
                                         "top_share"]
    particle = allocations.set_index("type").loc["TraceTruth.Particle"]
    assert ".MakeParticles(" in particle["top_method"] and particle["samples"] > 0
    stacks = rec.stacks("System.Byte[]")
    assert ".MakeLargeArrays(" in stacks["method"].iloc[0] and "MakeLargeArrays" in stacks["frames"].iloc[0]
    with pytest.raises(UnknownTypeError):
        rec.stacks("No.Such.Type")
    gcs = rec.gcs()
    assert [int((gcs["generation"] == g).sum()) for g in range(3)] == truth["gcsByGeneration"]
    assert (gcs["pause_ms"] > 0).all() and gcs["gen2_after"].notna().all()
    counters = rec.counters()
    assert list(counters.columns) == ["seconds", "name", "value", "unit"]
    timeline = plot_gc_timeline(gcs)
    assert len(timeline.lines) == len(gcs)  # one dotted mark per GC
    assert plot_gc_pauses(gcs).get_title().startswith(f"GC pauses: {len(gcs)} GCs")
    bars = plot_top_allocations(allocations, top=3)
    assert [t.get_text() for t in bars.get_yticklabels()][-1] == allocations["type"].iloc[0]


def test_record_a_running_process(tmp_path: Path) -> None:
    with trace_truth(tmp_path) as (proc, run):
        rec = pyinspect.record(proc.pid)
        assert rec.running
        truth = run.go(proc)
        _check_tables(rec, truth)
        assert not rec.running


def test_record_the_debug_session_in_a_with_block(tmp_path: Path) -> None:
    run = TraceTruthRun(tmp_path)
    with pyinspect.launch(str(target_dll("TraceTruth")), run.args()) as dbg:
        with dbg.record() as rec:
            truth = run.go()
        assert not rec.running
        _check_tables(rec, truth)


def test_a_paused_debuggee_is_refused_at_start_and_stop(tmp_path: Path) -> None:
    run = TraceTruthRun(tmp_path)
    with pyinspect.launch(str(target_dll("TraceTruth")), run.args()) as dbg:
        dbg.pause()
        with pytest.raises(InvalidParameterError, match="paused by the debugger"):
            dbg.record(gc=False)
        dbg.resume(wait=False)
        rec = dbg.record(gc=False)
        dbg.pause()
        with pytest.raises(InvalidParameterError, match="paused by the debugger"):
            rec.stop()
        assert rec.running
        dbg.resume(wait=False)
        run.go()
        assert any(row.type == "TraceTruth.Particle" for row in rec.stop().allocations)
