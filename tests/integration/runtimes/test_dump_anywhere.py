"""A dump read on another machine: its app folder gone and no matching runtime installed
(PYINSPECT_DOTNET_ROOTS names an empty folder), the DAC of its runtime build is found in the
NuGet packages folder, on a symbol server (real HTTP on 127.0.0.1, ClrMD's download, then
the cache with the server stopped), in a folder NuGet feed; offline with none of them the
error names every place tried. A DAC of another build planted in each place is never loaded."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from runtime_targets import RUNTIMES, published
from support.dump_places import (
    CORECLR,
    DAC,
    PACK_ID,
    PACK_VERSIONS,
    build_id,
    fill_pdb_store,
    fill_symbol_store,
    http_folder,
    loaded,
    machine_packages,
    nuget_config,
    other_version,
    pack_native,
    pack_nupkg,
    plant_runtime,
)
from support.targets import marker_line, read_truth, target_source, wait_for_file
from typer.testing import CliRunner

from pyinspect.cli import app as app_cli
from pyinspect.errors import DumpError
from pyinspect.heap import HeapReader
from pyinspect.models.triage import StackFrame


@dataclass(frozen=True)
class OrphanDump:
    framework: str
    version: str
    dump: Path
    customer: dict[str, object]
    coreclr_build_id: str


@pytest.fixture(scope="module", params=RUNTIMES)
def orphan(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[OrphanDump]:
    """One dump per runtime of MemoryTruth run from a copy of its folder, deleted after the dump."""
    framework: str = request.param
    work = tmp_path_factory.mktemp(f"orphan-{framework}")
    app = work / "app"
    shutil.copytree(published(framework), app)
    start = ["dotnet", str(app / "MemoryTruth.dll")] if framework == "net10.0" else [str(app / "MemoryTruth")]
    truth_file = work / "truth.json"
    proc = subprocess.Popen([*start, str(truth_file)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file(truth_file, timeout=60, proc=proc)
        written = CliRunner().invoke(app_cli, ["heap", "dump", "--pid", str(proc.pid), "-o", str(work / "core"), "--json"])
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert written.exit_code == 0, written.output
    answer = json.loads(written.stdout)
    dump = Path(answer["path"])
    kept = work / "core.dac"
    assert answer["keptBeside"] == [str(kept / DAC), str(kept / CORECLR), str(kept / "MemoryTruth.pdb")]
    (work / "core.dac").rename(work / "core.kept")  # each test lays the folder beside the dump itself
    (work / "pdb").mkdir()
    shutil.copyfile(app / "MemoryTruth.pdb", work / "pdb" / "MemoryTruth.pdb")  # as a build keeps it
    recorded = re.search(rb"/[^\0]*/MemoryTruth\.pdb", (app / "MemoryTruth.dll").read_bytes())
    assert recorded is not None, "the module records its PDB's path"
    (work / "pdb" / "recorded").write_bytes(recorded.group(0))
    shutil.rmtree(app)
    version = PACK_VERSIONS[framework]
    customer = read_truth(truth_file)["customer"]
    yield OrphanDump(framework, version, dump, customer, build_id(pack_native(version) / CORECLR))
    dump.unlink(missing_ok=True)
    shutil.rmtree(work / "core.kept")
    shutil.rmtree(work / "pdb")


@dataclass(frozen=True)
class Places:
    root: Path
    planted: list[Path]


@pytest.fixture
def places(orphan: OrphanDump, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Places]:
    """Every place empty and offline, except a DAC of another build planted beside the dump,
    in an installed runtime of the right version and in a search folder."""
    wrong = other_version(orphan.version)
    roots = tmp_path / "dotnet"
    planted = [plant_runtime(orphan.dump.with_name("core.dac"), wrong),
               plant_runtime(roots / "shared" / "Microsoft.NETCore.App" / orphan.version, wrong),
               plant_runtime(tmp_path / "search" / "native", wrong)]
    (tmp_path / "work").mkdir()
    nuget_config(tmp_path / "work", [])
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("PYINSPECT_DOTNET_ROOTS", str(roots))
    monkeypatch.setenv("PYINSPECT_DAC_SEARCH_PATH", str(tmp_path / "search"))
    monkeypatch.setenv("NUGET_PACKAGES", str(tmp_path / "packages"))
    monkeypatch.setenv("_NT_SYMBOL_PATH", str(tmp_path / "symbols"))
    monkeypatch.setenv("PYINSPECT_OFFLINE", "1")
    monkeypatch.setenv("PYINSPECT_NETWORK_TIMEOUT", "5")
    try:
        yield Places(tmp_path, planted)
    finally:
        shutil.rmtree(orphan.dump.with_name("core.dac"), ignore_errors=True)


def read(orphan: OrphanDump, places: Places) -> list[dict[str, object]]:
    """Open the dump, check an object against the program's truth, return where the DAC was found."""
    want = orphan.customer
    with HeapReader.open_dump(orphan.dump) as reader:
        obj = reader.object(str(want["address"]))
        attempts = reader.dac_lookup()
        used = [Path(str(a["path"])) for a in attempts if a["outcome"] == "used"]
        assert loaded(used, reader.reader_pid) == used  # the check below sees a DAC its reader loaded
        assert not loaded(places.planted, reader.reader_pid), "a DAC of another build was loaded"
    assert (obj.address, obj.type_name, obj.size) == (want["address"], want["typeName"], want["size"])
    for attempt in attempts[:-1]:
        assert attempt["outcome"] != "used"
    print(f"\n{orphan.framework}: " + "; ".join(f"{a['place']} {a['outcome']} {a['seconds']}s" for a in attempts))
    return attempts


def refused_plants(attempts: list[dict[str, object]]) -> set[str]:
    return {str(a["place"]) for a in attempts if "another runtime build" in str(a["outcome"])}


def test_the_dac_and_pdb_heap_dump_kept_beside_the_dump_serve_first(orphan: OrphanDump, places: Places) -> None:
    beside = orphan.dump.with_name("core.dac")
    shutil.rmtree(beside)  # the planted DAC of another build, replaced by the one heap dump kept
    places.planted.remove(beside / DAC)
    shutil.copytree(orphan.dump.with_name("core.kept"), beside)
    attempts = read(orphan, places)
    assert attempts == [{**attempts[0], "place": "beside the dump", "path": str(beside / DAC), "outcome": "used"}]
    top = _main_frames(orphan)[0]  # and the app's PDB kept with it gives file and line
    assert (Path(str(top.file)).name, top.line) == (target_source("MemoryTruth").name, marker_line("MemoryTruth", "echo") - 1)


def test_the_nuget_packages_folder_serves_the_runtime_pack(orphan: OrphanDump, places: Places,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUGET_PACKAGES", str(machine_packages()))  # read only
    attempts = read(orphan, places)
    assert attempts[-1]["place"] == "NuGet packages folder" and attempts[-1]["outcome"] == "used"
    assert attempts[-1]["path"] == str(pack_native(orphan.version) / DAC)
    assert refused_plants(attempts) == {"beside the dump", "installed runtimes", "PYINSPECT_DAC_SEARCH_PATH"}


def test_a_symbol_server_serves_the_dac_once_then_its_cache(orphan: OrphanDump, places: Places,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Two stores: the first serves another build under the right keys, the second the right one."""
    stores = places.root / "served"
    fill_symbol_store(stores / "wrong", orphan.coreclr_build_id, files_of=other_version(orphan.version))
    fill_symbol_store(stores / "right", orphan.coreclr_build_id, files_of=orphan.version)
    cache_wrong, cache_right = places.root / "cache-wrong", places.root / "cache-right"
    monkeypatch.setenv("PYINSPECT_OFFLINE", "0")
    with http_folder(stores) as server:
        url = server.url
        monkeypatch.setenv("_NT_SYMBOL_PATH", f"srv*{cache_wrong}*{url}/wrong;srv*{cache_right}*{url}/right")
        attempts = read(orphan, places)
    key = f"libmscordaccore.so/elf-buildid-coreclr-{orphan.coreclr_build_id}/libmscordaccore.so"
    assert f"/wrong/{key} 200" in server.requested and f"/right/{key} 200" in server.requested
    assert [a["place"] for a in attempts[-2:]] == ["symbol server", "symbol server"]
    assert "another runtime build" in str(attempts[-2]["outcome"]) and attempts[-1]["outcome"] == "used"
    assert str(attempts[-1]["path"]).startswith(str(cache_right))
    places.planted.append(cache_wrong / DAC / f"elf-buildid-coreclr-{orphan.coreclr_build_id}" / DAC)
    cached = read(orphan, places)  # the server is stopped: the cache serves
    assert cached[-1]["place"] == "symbol cache" and cached[-1]["path"] == attempts[-1]["path"]
    assert float(str(cached[-1]["seconds"])) < 0.1
    assert refused_plants(cached) == {"beside the dump", "installed runtimes", "PYINSPECT_DAC_SEARCH_PATH", "symbol cache"}


def test_a_folder_feed_serves_the_runtime_pack_into_the_packages_folder(orphan: OrphanDump, places: Places) -> None:
    """Two feeds: the first holds a pack of another build under the right name (never put
    into the packages folder), the second the real pack, in NuGet's id/version/ layout."""
    wrong, feed = places.root / "feed-wrong", places.root / "feed"
    _wrong_nupkg(wrong / f"{PACK_ID}.{orphan.version}.nupkg", other_version(orphan.version))
    (feed / PACK_ID / orphan.version).mkdir(parents=True)
    _link_or_copy(pack_nupkg(orphan.version), feed / PACK_ID / orphan.version / f"{PACK_ID}.{orphan.version}.nupkg")
    nuget_config(places.root / "work", [str(wrong), str(feed)])
    attempts = read(orphan, places)
    packages = places.root / "packages" / PACK_ID / orphan.version
    assert [a["place"] for a in attempts[-2:]] == ["NuGet feed", "NuGet feed"]
    assert attempts[-2]["path"] == str(wrong) and "another runtime build" in str(attempts[-2]["outcome"])
    assert attempts[-1]["outcome"] == "used" and str(attempts[-1]["path"]).startswith(str(packages))
    assert (packages / ".nupkg.metadata").is_file()
    again = read(orphan, places)  # fetched once: the packages folder serves it now
    assert again[-1]["place"] == "NuGet packages folder" and again[-1]["path"] == attempts[-1]["path"]


def test_a_nuget_v3_feed_over_http_serves_the_runtime_pack(orphan: OrphanDump, places: Places,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A company mirror: a v3 service index naming its flat container, on 127.0.0.1."""
    feed = places.root / "v3"
    flat = feed / "flat" / PACK_ID / orphan.version
    flat.mkdir(parents=True)
    _link_or_copy(pack_nupkg(orphan.version), flat / f"{PACK_ID}.{orphan.version}.nupkg")
    monkeypatch.setenv("PYINSPECT_OFFLINE", "0")
    with http_folder(feed) as server:
        (feed / "index.json").write_text(json.dumps({"version": "3.0.0", "resources": [
            {"@id": f"{server.url}/flat/", "@type": "PackageBaseAddress/3.0.0"}]}))
        nuget_config(places.root / "work", [f"{server.url}/index.json"])
        attempts = read(orphan, places)
    assert attempts[-1]["place"] == "NuGet feed" and attempts[-1]["outcome"] == "used"
    assert f"/flat/{PACK_ID}/{orphan.version}/{PACK_ID}.{orphan.version}.nupkg 200" in server.requested
    assert (places.root / "packages" / PACK_ID / orphan.version / ".nupkg.metadata").is_file()


def test_offline_with_no_place_holding_it_the_error_names_every_place(orphan: OrphanDump, places: Places,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every place holds another build (the app folder the dump records, for a self-contained
    app; the packages folder; the symbol cache) or is a server or feed not asked offline."""
    wrong = other_version(orphan.version)
    native = places.root / "packages" / PACK_ID / orphan.version / "runtimes" / "linux-x64" / "native"
    places.planted.append(plant_runtime(native, wrong))
    recorded = orphan.dump.with_name("app")  # a shared runtime's folder is tried with the installed ones
    if orphan.framework != "net10.0":
        places.planted.append(plant_runtime(recorded, wrong))
    fill_symbol_store(places.root / "symbols", orphan.coreclr_build_id, files_of=wrong)
    nuget_config(places.root / "work", [str(places.root / "feed"), "http://127.0.0.1:9/v3/index.json"])
    monkeypatch.setenv("_NT_SYMBOL_PATH", f"{places.root / 'symbols'};srv*{places.root / 'cache'}*http://127.0.0.1:9/")
    try:
        with pytest.raises(DumpError) as caught:
            HeapReader.open_dump(orphan.dump)  # its reader process ended with it: each refusal is in the message
    finally:
        shutil.rmtree(recorded, ignore_errors=True)
    message = caught.value.message
    print(f"\n{orphan.framework} offline: {message}")
    for place in ("beside the dump", "installed runtimes", "PYINSPECT_DAC_SEARCH_PATH", "NuGet packages folder",
                  "symbol cache", "NuGet feed"):
        assert f"{place}: " in message
    assert message.count("another runtime build") == (5 if orphan.framework == "net10.0" else 6)
    assert "already holds" in message  # the feed does not replace the packages folder's pack
    assert "symbol server: http://127.0.0.1:9/" in message and message.count("offline: not asked") == 2
    assert f"CoreCLR {orphan.version} build with build id {orphan.coreclr_build_id}" in message
    assert not (places.root / "packages" / PACK_ID / orphan.version / ".nupkg.metadata").exists()


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _wrong_nupkg(path: Path, version: str) -> None:
    """A small package of another build's DAC and libcoreclr.so under the right name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as package:
        for name in (DAC, CORECLR):
            package.write(pack_native(version) / name, f"runtimes/linux-x64/native/{name}")


def _main_frames(orphan: OrphanDump, symbols: str | None = None) -> list[StackFrame]:
    """The frames of MemoryTruth.dll in the threads answer of the dump. The PDB at the path
    the module records (the build's obj/ folder here) is moved aside for the read, as on a
    machine that did not build the app."""
    recorded = Path(orphan.dump.with_name("pdb").joinpath("recorded").read_text())
    aside = recorded.with_name(recorded.name + ".aside")
    recorded.rename(aside)
    try:
        with HeapReader.open_dump(orphan.dump) as reader:
            frames = [f for t in reader.threads(symbols=symbols) for f in t.frames if f.module == "MemoryTruth.dll"]
    finally:
        aside.rename(recorded)
    assert frames, "the main thread stands in MemoryTruth.dll"
    return frames


def test_without_the_apps_pdb_a_frame_says_so_once_per_module_and_keeps_its_method(
        orphan: OrphanDump, places: Places, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUGET_PACKAGES", str(machine_packages()))
    frames = _main_frames(orphan)
    assert frames[0].method.startswith("Program.<Main>$") and frames[0].file is None
    said = [f.symbols for f in frames if f.symbols]
    assert len(said) == 1 and "MemoryTruth.pdb" in str(said[0]) and "offline: not asked" not in str(said[0])


def test_the_apps_pdb_is_found_in_the_symbols_folder_beside_the_dump_and_on_a_symbol_server(
        orphan: OrphanDump, places: Places, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUGET_PACKAGES", str(machine_packages()))
    pdb = orphan.dump.with_name("pdb") / "MemoryTruth.pdb"
    line = marker_line("MemoryTruth", "echo") - 1  # the main thread waits in stdin.ReadLine()
    where = target_source("MemoryTruth").name
    for frames in (_main_frames(orphan, symbols=str(pdb.parent)), _beside(orphan, pdb), _served(orphan, places, pdb,
                                                                                                  monkeypatch)):
        top = frames[0]
        assert (Path(str(top.file)).name, top.line, top.symbols) == (where, line, None)


def _beside(orphan: OrphanDump, pdb: Path) -> list[StackFrame]:
    shutil.copyfile(pdb, orphan.dump.with_name("core.dac") / pdb.name)
    try:
        return _main_frames(orphan)
    finally:
        (orphan.dump.with_name("core.dac") / pdb.name).unlink()


def _served(orphan: OrphanDump, places: Places, pdb: Path, monkeypatch: pytest.MonkeyPatch) -> list[StackFrame]:
    key = fill_pdb_store(places.root / "pdb-store", pdb)
    monkeypatch.setenv("PYINSPECT_OFFLINE", "0")
    with http_folder(places.root / "pdb-store") as server:
        monkeypatch.setenv("_NT_SYMBOL_PATH", f"srv*{places.root / 'pdb-cache'}*{server.url}")
        frames = _main_frames(orphan)
    assert f"/{key} 200" in server.requested
    assert (places.root / "pdb-cache" / key).is_file()
    return frames
