"""The CLI (`pyinspect heap ...`) and the notebook API on a live process and its dump."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
from heaptruth import TruthTarget
from typer.testing import CliRunner

import pyinspect
from pyinspect.cli import app

PYINSPECT = Path(sys.executable).parent / "pyinspect"


def test_cli_stats_json_lists_types_with_counts_and_sizes(truth_target: TruthTarget) -> None:
    for source in (["--pid", str(truth_target.pid)], ["--dump", str(truth_target.dump)]):
        result = CliRunner().invoke(app, ["heap", "stats", *source, "--json"])
        assert result.exit_code == 0, result.output
        rows = json.loads(result.stdout)
        dog = next(r for r in rows if r["type"] == "HeapTruth.Dog")
        assert dog == {"type": "HeapTruth.Dog", "count": 1, "totalSize": truth_target.truth["dog"]["size"]}


def test_cli_stats_top_limits_rows_and_table_prints(truth_target: TruthTarget) -> None:
    result = CliRunner().invoke(app, ["heap", "stats", "--pid", str(truth_target.pid), "--top", "3", "--json"])
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 3
    table = subprocess.run([str(PYINSPECT), "heap", "stats", "--pid", str(truth_target.pid), "--top", "5"],
                           capture_output=True, text=True, timeout=60, check=False)
    assert table.returncode == 0 and "total size" in table.stdout


def test_cli_object_prints_the_inspection_shape(truth_target: TruthTarget) -> None:
    expected = truth_target.truth["dog"]
    result = subprocess.run([str(PYINSPECT), "heap", "object", "--pid", str(truth_target.pid),
                             expected["address"], "--depth", "2", "--json"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    inspection = json.loads(result.stdout)
    assert set(inspection) == {"address", "typeName", "size", "fields", "isNull", "hasCircularRef", "truncated"}
    assert (inspection["address"], inspection["typeName"], inspection["size"]) == (
        expected["address"], expected["typeName"], expected["size"])
    legs = next(f for f in inspection["fields"] if f["name"] == "Legs")
    assert legs == {"name": "Legs", "typeName": "System.Int32", "value": "4", "offset": expected["fields"]["Legs"]["offset"],
                    "size": 4, "hasChildren": False}
    assert inspection["hasCircularRef"] is True


def test_cli_reports_errors_with_their_code(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["heap", "stats", "--dump", str(tmp_path / "none.dmp")])
    assert result.exit_code == 1
    assert "DUMP_ERROR" in result.stderr and "Traceback" not in result.output


def test_cli_dump_writes_a_readable_dump(truth_target: TruthTarget, tmp_path: Path) -> None:
    """The dump's runtime DAC is kept beside it, named in the answer, and read first."""
    out = tmp_path / "cli.dmp"
    result = CliRunner().invoke(app, ["heap", "dump", "--pid", str(truth_target.pid), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    written = json.loads(result.stdout)
    assert written["keptBeside"] == [str(tmp_path / "cli.dmp.dac" / name)
                                     for name in ("libmscordaccore.so", "libcoreclr.so", "HeapTruth.pdb")]
    with pyinspect.open_dump(out) as heap:
        assert heap.object(truth_target.truth["dog"]["address"]).size == truth_target.truth["dog"]["size"]
        assert heap.reader.dac_lookup()[0] == {**heap.reader.dac_lookup()[0], "place": "beside the dump",
                                               "path": written["keptBeside"][0], "outcome": "used"}
    out.unlink()
    shutil.rmtree(tmp_path / "cli.dmp.dac")


def test_notebook_create_dump_keeps_the_dac_beside_it_and_names_it(truth_target: TruthTarget, tmp_path: Path) -> None:
    made = pyinspect.create_dump(truth_target.pid, tmp_path / "nb.dmp")
    kept = tmp_path / "nb.dmp.dac"
    assert made.kept_beside == tuple(str(kept / name) for name in ("libmscordaccore.so", "libcoreclr.so", "HeapTruth.pdb"))
    assert made.path == str(tmp_path / "nb.dmp") and made.size_bytes == (tmp_path / "nb.dmp").stat().st_size
    assert str(kept) in made.message
    (tmp_path / "nb.dmp").unlink()
    shutil.rmtree(kept)


def test_notebook_stats_is_a_dataframe_and_object_a_model(truth_target: TruthTarget) -> None:
    with pyinspect.open_heap(truth_target.pid) as heap:
        frame = heap.stats(progress=False)
        assert isinstance(frame, pd.DataFrame)
        assert list(frame.columns) == ["type", "count", "total_size"]
        dog = frame[frame["type"] == "HeapTruth.Dog"].iloc[0]
        assert (int(dog["count"]), int(dog["total_size"])) == (1, truth_target.truth["dog"]["size"])
        assert frame["total_size"].is_monotonic_decreasing
        obj = heap.object(truth_target.truth["friend"]["address"])
        assert obj.type_name == "HeapTruth.Animal" and obj.field("Legs").value == "2"
    with pyinspect.open_dump(truth_target.dump) as heap:
        from_dump = heap.stats(progress=False)
        dog_rows = from_dump[from_dump["type"] == "HeapTruth.Dog"]
        assert dog_rows[["count", "total_size"]].values.tolist() == [[1, truth_target.truth["dog"]["size"]]]
