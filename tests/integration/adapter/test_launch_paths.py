"""launch `cwd` and `program` taken as netcoredbg takes them: an empty or missing `cwd` is
the adapter's working directory, a relative one is resolved against it, a relative
`program` against the `cwd`; a path that does not exist is refused by name. The adapter
runs in tests/targets/_build; CompatSample's `cwd` mode prints where it runs."""

from __future__ import annotations

from typing import Any

import pytest
from support.adapter_session import ok, output_of
from support.dap_wire import WirePeer
from support.targets import BUILD_DIR, target_dll

TARGET = "CompatSample"


def run_from_build_dir(launch: dict[str, Any]) -> str:
    """Launch from an adapter whose working directory is the build folder; the program's output."""
    target_dll(TARGET)  # fails clearly when the debuggee is not built
    peer = WirePeer("--interpreter=vscode", cwd=str(BUILD_DIR))
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        ok(peer.request("launch", {"args": ["cwd"], **launch}, timeout=30))
        ok(peer.request("configurationDone"))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        peer.wait_event("terminated", timeout=30)
        return output_of(peer, "stdout")
    finally:
        peer.close()


@pytest.mark.parametrize("cwd", ["", None], ids=["empty", "missing"])
def test_an_empty_or_missing_cwd_is_the_adapters_own(cwd: str | None) -> None:
    launch: dict[str, Any] = {"program": f"{TARGET}/{TARGET}.dll"}
    if cwd is not None:
        launch["cwd"] = cwd
    assert f"cwd {BUILD_DIR}\n" in run_from_build_dir(launch)


def test_a_relative_cwd_and_program_resolve_against_each_other() -> None:
    text = run_from_build_dir({"program": f"{TARGET}.dll", "cwd": TARGET})
    assert f"cwd {BUILD_DIR / TARGET}\n" in text


def test_a_dot_dot_program_path_resolves_like_a_shells() -> None:
    text = run_from_build_dir({"program": f"../{TARGET}/{TARGET}.dll", "cwd": f"./{TARGET}"})
    assert f"cwd {BUILD_DIR / TARGET}\n" in text


@pytest.mark.parametrize(("launch", "said"), [
    ({"program": "Nope/App.dll", "cwd": ""}, "program not found: 'Nope/App.dll'"),
    ({"program": f"{TARGET}/{TARGET}.dll", "cwd": "no-such-dir"}, "cwd not found: 'no-such-dir'"),
    ({"program": "", "cwd": ""}, "non-empty 'program'"),
], ids=["program", "cwd", "empty-program"])
def test_a_path_that_does_not_exist_is_refused_by_name(launch: dict[str, Any], said: str) -> None:
    peer = WirePeer("--interpreter=vscode", cwd=str(BUILD_DIR))
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr"}))
        answer = peer.request("launch", launch, timeout=30)
        assert answer["success"] is False and said in answer["message"], answer
        assert "Exception" not in answer["message"]
    finally:
        peer.close()
