"""Where a dump's DAC is looked for, read from the user's settings as SOS and NuGet read
them: _NT_SYMBOL_PATH stores, NuGet.Config sources (nearest first, <clear/>, disabled,
relative folders), the packages folder, the offline switch, the timeout's bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyinspect.errors import InvalidParameterError
from pyinspect.targets.dac_sources import beside_dump, dac_sources_json
from pyinspect.targets.nuget_config import package_sources, packages_folder
from pyinspect.targets.symbol_path import MICROSOFT_SYMBOL_SERVER, symbol_stores


def test_symbol_path_stores_follow_the_nt_symbol_path_syntax(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    default = str(tmp_path / "xdg" / "pyinspect" / "symbols")
    assert symbol_stores("") == [{"cache": default, "servers": [MICROSOFT_SYMBOL_SERVER]}]
    assert symbol_stores("srv*/c*https://a/s;SRV*https://b;/local;cache*/only;symsrv*symsrv.dll*/d*http://e") == [
        {"cache": "/c", "servers": ["https://a/s"]},
        {"cache": default, "servers": ["https://b"]},
        {"cache": "/local", "servers": []},
        {"cache": "/only", "servers": []},
        {"cache": "/d", "servers": ["http://e"]},
    ]


def _config(folder: Path, body: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nuget.config").write_text(f'<?xml version="1.0"?><configuration>{body}</configuration>')


def test_package_sources_are_read_nearest_first_as_nuget_reads_them(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    user = home / ".nuget" / "NuGet"
    user.mkdir(parents=True)
    (user / "NuGet.Config").write_text('<configuration><packageSources><add key="org" value="https://org/v3/index.json"/>'
                                       '</packageSources></configuration>')
    monkeypatch.setenv("HOME", str(home))
    repo, work = tmp_path / "repo", tmp_path / "repo" / "app"
    _config(repo, '<packageSources><add key="mirror" value="https://mirror/v3/index.json"/>'
                  '<add key="off" value="https://off/index.json"/></packageSources>'
                  '<disabledPackageSources><add key="off" value="true"/></disabledPackageSources>')
    _config(work, '<packageSources><add key="local" value="feed"/></packageSources>')
    monkeypatch.chdir(work)
    assert package_sources() == ["https://org/v3/index.json", "https://mirror/v3/index.json", str(work / "feed")]
    _config(work, '<packageSources><clear/><add key="local" value="feed"/></packageSources>')
    assert package_sources() == [str(work / "feed")]


def test_the_packages_folder_is_nuget_packages_then_the_configuration_then_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NUGET_PACKAGES", raising=False)
    assert packages_folder() == tmp_path / ".nuget" / "packages"
    _config(tmp_path, '<config><add key="globalPackagesFolder" value="pkgs"/></config>')
    assert packages_folder() == tmp_path / "pkgs"
    monkeypatch.setenv("NUGET_PACKAGES", str(tmp_path / "env"))
    assert packages_folder() == tmp_path / "env"


def test_the_sources_the_helper_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYINSPECT_OFFLINE", "1")
    monkeypatch.setenv("PYINSPECT_DOTNET_ROOTS", f"{tmp_path / 'a'}:{tmp_path / 'b'}")
    monkeypatch.setenv("PYINSPECT_NETWORK_TIMEOUT", "2.5")
    sources = json.loads(dac_sources_json(tmp_path / "core", search_path=""))
    assert sources["offline"] is True and sources["timeoutSeconds"] == 2.5 and sources["explicitDac"] is None
    assert sources["besideDump"] == str(beside_dump(tmp_path / "core")) == str(tmp_path / "core.dac")
    assert sources["installedRuntimes"] == [str(tmp_path / x / "shared" / "Microsoft.NETCore.App") for x in "ab"]
    assert json.loads(dac_sources_json(tmp_path / "core", offline=False))["offline"] is False
    for bad in ("0", "601", "soon"):
        monkeypatch.setenv("PYINSPECT_NETWORK_TIMEOUT", bad)
        with pytest.raises(InvalidParameterError, match="PYINSPECT_NETWORK_TIMEOUT"):
            dac_sources_json(tmp_path / "core")
