"""Locals, fields, array elements and path evaluation at a breakpoint, compared exactly
with what AdapterSample holds; memoryReference compared with the addresses the debuggee
measured for itself (Unsafe.AsPointer inside a no-GC region)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import children, frame_variables, launched, ok, top_frame
from support.dap_wire import WirePeer
from support.targets import read_truth

TARGET = "AdapterSample"

EXPECTED_LOCALS = {
    "exitCode": ("7", "int"),
    "count": ("42", "int"),
    "big": ("1234567890123", "long"),
    "ratio": ("3.5", "double"),
    "small": ("0.25", "float"),
    "flag": ("true", "bool"),
    "letter": ("'c'", "char"),
    "text": ('"hello \\"world\\""', "string"),
    "unicode": ('"héllo wörld ✓"', "string"),
    "nothing": ("null", "string"),
    "numbers": ("{int[3]}", "int[]"),
    "grid": ("{int[2, 3]}", "int[,]"),
    "jagged": ("{int[2][]}", "int[][]"),
    "list": ("Count = 3", "System.Collections.Generic.List<int>"),
    "point": ("{AdapterSample.Point}", "AdapterSample.Point"),
    "color": ("Green", "AdapterSample.Color"),
    "access": ("Read | Write", "AdapterSample.Access"),
    "maybe": ("5", "int?"),
    "none": ("null", "int?"),
    "price": ("12.34", "decimal"),
    "when": ("{2024-01-02T03:04:05.0000000}", "System.DateTime"),
    "id": ("{01234567-89ab-cdef-0123-456789abcdef}", "System.Guid"),
    "dog": ("{AdapterSample.Dog}", "AdapterSample.Dog"),
}


@pytest.fixture
def stopped_at_locals(tmp_path: Path) -> Iterator[tuple[WirePeer, dict[str, Any], dict[str, int]]]:
    truth_file = tmp_path / "truth.json"
    with launched(TARGET, args=[str(truth_file), "7"], markers=["locals"]) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        yield peer, top_frame(peer, stopped["threadId"]), read_truth(truth_file)


def test_every_kind_of_local_has_its_exact_value_and_type(stopped_at_locals: Any) -> None:
    peer, frame, _ = stopped_at_locals
    variables = frame_variables(peer, frame["id"])
    assert {name: (variables[name]["value"], variables[name]["type"]) for name in EXPECTED_LOCALS} == EXPECTED_LOCALS
    assert variables["args"]["pyinspectKind"] == "argument"
    assert variables["count"]["pyinspectKind"] == "local"
    assert next(iter(variables)) == "args"
    assert variables["count"]["variablesReference"] == 0
    assert variables["numbers"]["indexedVariables"] == 3


def test_memory_references_are_the_addresses_the_debuggee_measured(stopped_at_locals: Any) -> None:
    peer, frame, truth = stopped_at_locals
    variables = frame_variables(peer, frame["id"])
    for name in ("dog", "numbers", "text"):
        assert int(variables[name]["memoryReference"], 16) == truth[name], name
    for name in ("count", "point", "nothing", "maybe"):
        assert "memoryReference" not in variables[name], name


def test_object_fields_include_base_classes_auto_properties_structs_and_cycles(stopped_at_locals: Any) -> None:
    peer, frame, truth = stopped_at_locals
    dog = frame_variables(peer, frame["id"])["dog"]
    fields = children(peer, dog["variablesReference"])
    assert {n: f["value"] for n, f in fields.items()} == {
        "Age": "3", "Friend": "{AdapterSample.Dog}", "Home": "{AdapterSample.Point}", "Name": '"Rex"', "legs": "4"}
    assert int(fields["Friend"]["memoryReference"], 16) == truth["dog"]
    assert fields["Name"]["evaluateName"] == "dog.Name"
    home = children(peer, fields["Home"]["variablesReference"])
    assert {n: (f["value"], f["evaluateName"]) for n, f in home.items()} == {
        "X": ("7", "dog.Home.X"), "Y": ("-8", "dog.Home.Y")}


def test_array_elements_of_every_shape_and_paging(stopped_at_locals: Any) -> None:
    peer, frame, _ = stopped_at_locals
    variables = frame_variables(peer, frame["id"])
    numbers = children(peer, variables["numbers"]["variablesReference"])
    assert {n: v["value"] for n, v in numbers.items()} == {"[0]": "1", "[1]": "2", "[2]": "3"}
    grid = children(peer, variables["grid"]["variablesReference"])
    assert {n: v["value"] for n, v in grid.items()} == {
        "[0, 0]": "1", "[0, 1]": "2", "[0, 2]": "3", "[1, 0]": "4", "[1, 1]": "5", "[1, 2]": "6"}
    assert grid["[1, 2]"]["evaluateName"] == "grid[1, 2]"
    jagged = children(peer, variables["jagged"]["variablesReference"])
    assert [v["value"] for v in jagged.values()] == ["{int[1]}", "{int[2]}"]
    page = children(peer, variables["numbers"]["variablesReference"], start=1, count=1)
    assert {n: v["value"] for n, v in page.items()} == {"[1]": "2"}


def test_hex_format_shows_integers_in_hex(stopped_at_locals: Any) -> None:
    peer, frame, _ = stopped_at_locals
    variables = frame_variables(peer, frame["id"], format={"hex": True})
    assert variables["count"]["value"] == "0x2A"
    assert variables["ratio"]["value"] == "3.5"


@pytest.mark.parametrize(("expression", "result"), [
    ("count", "42"), ("dog.Home.Y", "-8"), ("dog.Friend.Friend.Age", "3"), ("grid[1, 2]", "6"),
    ("jagged[1][1]", "3"), ("numbers[0]", "1"), ("dog.Name", '"Rex"'), ("args[1]", '"7"'),
])
def test_evaluate_reads_names_member_paths_and_indexers(stopped_at_locals: Any, expression: str, result: str) -> None:
    peer, frame, _ = stopped_at_locals
    assert ok(peer.request("evaluate", {"expression": expression, "frameId": frame["id"]}))["result"] == result


def test_evaluate_of_an_object_gives_its_children_and_address(stopped_at_locals: Any) -> None:
    peer, frame, truth = stopped_at_locals
    body = ok(peer.request("evaluate", {"expression": "dog", "frameId": frame["id"], "context": "watch"}))
    assert int(body["memoryReference"], 16) == truth["dog"]
    assert "Age" in children(peer, body["variablesReference"])


@pytest.mark.parametrize(("expression", "message"), [
    ("nope", "not a local"), ("numbers[5]", "out of range"), ("dog.Missing", "not a field"),
    ("nothing.Length", "null"), ("count +", "unsupported"),
])
def test_evaluate_errors_say_what_went_wrong(stopped_at_locals: Any, expression: str, message: str) -> None:
    peer, frame, _ = stopped_at_locals
    response = peer.request("evaluate", {"expression": expression, "frameId": frame["id"]})
    assert response["success"] is False
    assert message in response["message"]


def test_references_die_when_the_process_resumes(stopped_at_locals: Any) -> None:
    peer, frame, _ = stopped_at_locals
    dog = frame_variables(peer, frame["id"])["dog"]
    thread = peer.request("threads")["body"]["threads"][0]["id"]
    ok(peer.request("next", {"threadId": thread}))
    peer.wait_event("stopped", timeout=30)
    stale = peer.request("variables", {"variablesReference": dog["variablesReference"]})
    assert stale["success"] is False and "valid until the process resumes" in stale["message"]
    stale_frame = peer.request("scopes", {"frameId": frame["id"]})
    assert stale_frame["success"] is False and "Unknown frame id" in stale_frame["message"]
