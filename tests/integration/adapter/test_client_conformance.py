"""What clients we did not write rely on (issue 13): variables `filter`, breakpoints kept
across re-sends, exact source paths, sourceFileMap both ways, a real `continued` thread id."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import children, frame_variables, launched, ok, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line, target_dll, target_source

TARGET = "AdapterSample"


@pytest.fixture
def stopped_at_locals(tmp_path: Path) -> Iterator[tuple[WirePeer, dict[str, Any]]]:
    with launched(TARGET, args=[str(tmp_path / "truth.json"), "7"], markers=["locals"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        yield peer, top_frame(peer, stopped["threadId"])


def test_variables_filter_gives_a_list_its_elements_once(stopped_at_locals: Any) -> None:
    """VS Code asks named and indexed children separately: each element must come once."""
    peer, frame = stopped_at_locals
    variables = frame_variables(peer, frame["id"])
    listed = variables["list"]
    assert listed["indexedVariables"] == 3
    reference = listed["variablesReference"]
    indexed = children(peer, reference, filter="indexed")
    named = children(peer, reference, filter="named")
    assert {n: v["value"] for n, v in indexed.items()} == {"[0]": "10", "[1]": "20", "[2]": "30"}
    assert list(named) == ["Raw View"]
    numbers = variables["numbers"]["variablesReference"]
    assert children(peer, numbers, filter="named") == {}
    assert list(children(peer, numbers, filter="indexed")) == ["[0]", "[1]", "[2]"]
    assert children(peer, variables["dog"]["variablesReference"], filter="indexed") == {}
    assert "Name" in children(peer, variables["dog"]["variablesReference"], filter="named")
    bad = peer.request("variables", {"variablesReference": reference, "filter": "both"})
    assert bad["success"] is False and "filter" in bad["message"]


def loop_breakpoints(peer: WirePeer, **extra: Any) -> list[dict[str, Any]]:
    body = ok(peer.request("setBreakpoints", {"source": {"path": str(target_source(TARGET))},
                                              "breakpoints": [{"line": marker_line(TARGET, "loop"), **extra}]}))
    return list(body["breakpoints"])


def test_resending_a_files_breakpoints_keeps_their_ids_and_hit_counts() -> None:
    with launched(TARGET, args=["", "0"], markers=["loop"]) as peer:
        first = peer.wait_event("stopped", timeout=30)["body"]
        [before] = loop_breakpoints(peer)  # VS Code re-sends the file's set after an edit
        assert first["hitBreakpointIds"] == [before["id"]]
        [after] = loop_breakpoints(peer, hitCondition="3")  # the 3rd hit overall, not the 3rd from now
        assert after["id"] == before["id"]
        ok(peer.request("continue", {"threadId": first["threadId"]}))
        again = peer.wait_event("stopped", timeout=30)["body"]
        assert again["hitBreakpointIds"] == [before["id"]]
        i = frame_variables(peer, top_frame(peer, again["threadId"])["id"])["i"]["value"]
        assert i == "2", "hit 3 is i == 2: the count went on from the first hits"


def test_a_breakpoint_in_another_folders_file_of_the_same_name_does_not_bind(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "Program.cs"
    elsewhere.parent.mkdir()
    shutil.copy(target_source(TARGET), elsewhere)
    with launched(TARGET, args=["", "0"]) as peer:
        body = ok(peer.request("setBreakpoints", {"source": {"path": str(elsewhere)},
                                                  "breakpoints": [{"line": marker_line(TARGET, "loop")}]}))
        assert body["breakpoints"][0]["verified"] is False
        relative = ok(peer.request("setBreakpoints", {"source": {"path": "Program.cs"},
                                                      "breakpoints": [{"line": marker_line(TARGET, "loop")}]}))
        assert relative["breakpoints"][0]["verified"] is True, "a relative path matches by file name"
        stop = peer.wait_event("stopped", timeout=30)["body"]
        assert stop["hitBreakpointIds"] == [relative["breakpoints"][0]["id"]]


def test_source_file_map_applies_to_breakpoints_and_stack_frames(tmp_path: Path) -> None:
    build_folder = target_source(TARGET).parent
    local_folder = tmp_path / "checkout"
    shutil.copytree(build_folder, local_folder, ignore=shutil.ignore_patterns("obj", "bin"))
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll(TARGET)), "args": ["", "0"],
                                   "sourceFileMap": {str(build_folder): str(local_folder)}}, timeout=30))
        local = local_folder / "Program.cs"
        body = ok(peer.request("setBreakpoints", {"source": {"path": str(local)},
                                                  "breakpoints": [{"line": marker_line(TARGET, "inner")}]}))
        assert body["breakpoints"][0]["verified"] is True
        ok(peer.request("configurationDone"))
        stop = peer.wait_event("stopped", timeout=30)["body"]
        frame = top_frame(peer, stop["threadId"])
        assert frame["source"]["path"] == str(local)
        continued = ok(peer.request("continue", {"threadId": stop["threadId"]}))
        assert continued["allThreadsContinued"] is True
        assert peer.wait_event("continued")["body"]["threadId"] == stop["threadId"]
    finally:
        peer.close()
