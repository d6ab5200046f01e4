"""Targets pyinspect cannot read get a clear coded error, never a wrong answer: a dump whose
runtime build has no DAC here (until one is named), a mismatched DAC named explicitly, a
process whose runtime has not started yet, a pid that is not .NET, a program that
disables startup hooks. The adapter survives each."""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from runtime_targets import published
from support.adapter_session import ok
from support.dap_wire import WirePeer
from support.targets import wait_for_file

from pyinspect.errors import DumpError, NotDotNetProcessError
from pyinspect.heap import HeapReader, create_dump
from pyinspect.targets.dotnet_paths import runtime_dir
from pyinspect.targets.runtimes import runtime_of


@pytest.fixture(scope="module")
def orphan_dump(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """A dump of a self-contained .NET 8 app whose folder is gone (as on another machine),
    and a folder holding that runtime's DAC and libcoreclr.so, as a runtime pack would."""
    work = tmp_path_factory.mktemp("orphan")
    app = work / "app"
    shutil.copytree(published("net8.0"), app)
    truth = work / "truth.json"
    proc = subprocess.Popen([str(app / "MemoryTruth"), str(truth)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_file(truth, timeout=60, proc=proc)
        dump = create_dump(proc.pid, work / "orphan.dmp")
    finally:
        proc.kill()
        proc.wait(timeout=10)
    pack = work / "pack" / "runtimes" / "linux-x64" / "native"
    pack.mkdir(parents=True)
    for name in ("libmscordaccore.so", "libcoreclr.so"):
        shutil.copy2(app / name, pack / name)
    shutil.rmtree(app)
    yield dump, work / "pack"
    dump.unlink(missing_ok=True)


def test_a_dump_whose_runtime_has_no_dac_here_names_the_build_it_needs(
        orphan_dump: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline, with an empty packages folder and symbol cache: nothing serves, nothing waits."""
    dump, _ = orphan_dump
    monkeypatch.setenv("NUGET_PACKAGES", str(tmp_path / "packages"))
    monkeypatch.setenv("_NT_SYMBOL_PATH", f"srv*{tmp_path / 'symbols'}*http://127.0.0.1:9/")
    with pytest.raises(DumpError) as caught:
        HeapReader.open_dump(dump, dac_search_path="", offline=True)
    message = caught.value.message
    assert "no DAC matching the .NET runtime" in message and "build id" in message
    assert "installed runtimes: " in message and "another runtime build" in message  # the installed .NET 10's
    assert "NuGet packages folder: " in message and "offline: not asked" in message
    assert "--dac PATH" in message and "PYINSPECT_DAC_SEARCH_PATH" in message


def test_a_server_that_never_answers_costs_one_bounded_wait_each(
        orphan_dump: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A symbol server and a NuGet feed on 127.0.0.1 that accept and never answer (as a
    machine without internet may see): each is waited for PYINSPECT_NETWORK_TIMEOUT, no more."""
    dump, _ = orphan_dump
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        (tmp_path / "nuget.config").write_text(f'<configuration><packageSources><clear/><add key="f" value="{url}/index.json"/>'
                                               '</packageSources></configuration>')
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("NUGET_PACKAGES", str(tmp_path / "packages"))
        monkeypatch.setenv("_NT_SYMBOL_PATH", f"srv*{tmp_path / 'symbols'}*{url}")
        monkeypatch.setenv("PYINSPECT_NETWORK_TIMEOUT", "1")
        started = time.monotonic()
        with pytest.raises(DumpError) as caught:
            HeapReader.open_dump(dump, dac_search_path="", offline=False)
        elapsed = time.monotonic() - started
    message = caught.value.message
    assert f"symbol server: {url} " in message and f"no answer from {url} within 1 s" in message
    assert f"NuGet feed: {url}/index.json ({url}/index.json: no answer within 1 s)" in message
    assert elapsed < 10, elapsed


def test_a_mismatched_dac_named_explicitly_is_refused(orphan_dump: tuple[Path, Path]) -> None:
    dump, _ = orphan_dump
    installed = runtime_dir() / "libmscordaccore.so"  # the installed .NET 10's
    with pytest.raises(DumpError, match="another runtime build"):
        HeapReader.open_dump(dump, dac=installed)


def test_the_dac_in_a_search_folder_or_named_explicitly_reads_the_dump(orphan_dump: tuple[Path, Path]) -> None:
    dump, pack = orphan_dump
    dac = pack / "runtimes" / "linux-x64" / "native" / "libmscordaccore.so"
    for reader in (HeapReader.open_dump(dump, dac_search_path=str(pack), offline=True),
                   HeapReader.open_dump(dump, dac=dac)):
        with reader:
            stats = {row.type: row.count for row in reader.stats()}
            assert stats["MemoryTruth.Bag"] == 1


@pytest.fixture
def adapter() -> Iterator[WirePeer]:
    peer = WirePeer("--interpreter=vscode")
    ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
    yield peer
    peer.close()


def assert_attach_refused(adapter: WirePeer, pid: int) -> None:
    answer = adapter.request("attach", {"processId": pid}, timeout=30)
    assert answer["success"] is False
    assert f"process {pid} has no .NET runtime (libcoreclr.so) loaded" in answer["message"]
    assert adapter.request("threads")["success"] in (True, False)  # the adapter still answers
    assert adapter.proc.poll() is None


def test_a_process_whose_runtime_has_not_started_yet_is_refused_then_works_once_it_has(
        adapter: WirePeer, tmp_path: Path) -> None:
    truth = tmp_path / "truth.json"
    # Stopped before exec: the very pid that will run .NET 8, with no runtime loaded yet.
    proc = subprocess.Popen(["sh", "-c", 'kill -STOP $$; exec "$0" "$1"', str(published("net8.0") / "MemoryTruth"),
                             str(truth)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_stopped(proc.pid)
        with pytest.raises(NotDotNetProcessError, match="its runtime has not started yet"):
            HeapReader.attach(proc.pid)
        assert_attach_refused(adapter, proc.pid)
        proc.send_signal(signal.SIGCONT)
        wait_for_file(truth, timeout=60, proc=proc)
        assert runtime_of(proc.pid).version.startswith("8.0.")
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_pid_that_is_not_dotnet_is_refused_by_the_adapter_the_heap_and_createdump(
        adapter: WirePeer, tmp_path: Path) -> None:
    proc = subprocess.Popen(["sleep", "60"])
    try:
        assert_attach_refused(adapter, proc.pid)
        with pytest.raises(NotDotNetProcessError, match="not a .NET process"):
            HeapReader.attach(proc.pid)
        with pytest.raises(NotDotNetProcessError):
            create_dump(proc.pid, tmp_path / "x.dmp")
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_launching_a_program_that_disables_startup_hooks_says_so(adapter: WirePeer, tmp_path: Path) -> None:
    app = tmp_path / "app"
    shutil.copytree(published("net10.0"), app)
    config_path = app / "MemoryTruth.runtimeconfig.json"
    config = json.loads(config_path.read_text())
    config["runtimeOptions"].setdefault("configProperties", {})["System.StartupHookProvider.IsSupported"] = False
    config_path.write_text(json.dumps(config))
    answer = adapter.request("launch", {"program": str(app / "MemoryTruth.dll"), "args": [str(tmp_path / "t.json")]},
                             timeout=30)
    assert answer["success"] is False
    assert "disables startup hooks" in answer["message"] and "attach" in answer["message"]
    assert not (tmp_path / "t.json").exists(), "the program must not have been started"


def wait_until_stopped(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "T":
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} did not stop")
