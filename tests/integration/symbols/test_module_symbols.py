"""The adapter's symbol layer against a real compiled debuggee (tests/targets/SymbolsSample).

Runs the adapter's `--symbols-selftest DLL SOURCE LINE` diagnostic, which prints what a
breakpoint at SOURCE:LINE binds to and the metadata view of every type, and checks it
against the marked lines of the debuggee's source.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from pyinspect.paths import dotnet_host, dotnet_tool
from tests.support.targets import marker_line, target_dll, target_source

TARGET = "SymbolsSample"


def selftest(source: str, line: int) -> dict[str, Any]:
    adapter = dotnet_tool("PyInspect.Debugger")
    result = subprocess.run(
        [str(dotnet_host()), str(adapter), "--symbols-selftest", str(target_dll(TARGET)), source, str(line)],
        capture_output=True, text=True, timeout=30, check=True,
    )
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def bound_at(marker: str) -> dict[str, Any]:
    data = selftest(str(target_source(TARGET)), marker_line(TARGET, marker))
    assert len(data["bound"]) == 1, data["bound"]
    bound: dict[str, Any] = data["bound"][0]
    return bound


def test_a_line_with_code_binds_to_its_own_line_in_main() -> None:
    bound = bound_at("after_blank")
    assert bound["method"] == "Samples.Symbols.Program.Main"
    assert bound["line"] == marker_line(TARGET, "after_blank")
    assert bound["isStatic"] is True
    assert bound["parameters"] == ["args"]


def test_a_line_without_code_binds_to_the_nearest_following_line() -> None:
    bound = bound_at("before_code")
    assert bound["line"] == marker_line(TARGET, "after_blank")
    assert bound["spanLine"] == bound["line"]


def test_a_line_past_the_last_code_binds_nowhere() -> None:
    lines = len(target_source(TARGET).read_text().splitlines())
    assert selftest(str(target_source(TARGET)), lines + 5)["bound"] == []


def test_a_bare_file_name_matches_the_unique_document() -> None:
    data = selftest("Program.cs", marker_line(TARGET, "last"))
    assert [b["line"] for b in data["bound"]] == [marker_line(TARGET, "last")]
    assert data["sourceFiles"] == [str(target_source(TARGET))]


def test_an_unknown_file_binds_nowhere() -> None:
    assert selftest("/nowhere/Other.cs", 1)["bound"] == []


def test_locals_in_scope_include_loop_variables_only_inside_the_loop() -> None:
    inside = {loc["name"]: loc["slot"] for loc in bound_at("loop_body")["locals"]}
    outside = {loc["name"] for loc in bound_at("after_blank")["locals"]}
    assert {"total", "i", "squared"} <= set(inside)
    assert len(set(inside.values())) == len(inside)
    assert "squared" not in outside and "i" not in outside
    assert "total" in outside


def test_step_range_starts_at_the_bound_offset_and_is_not_empty() -> None:
    for marker in ("after_blank", "loop_body", "last"):
        bound = bound_at(marker)
        [[start, end]] = bound["stepRanges"]
        assert start == bound["ilOffset"] and end > start


def test_nested_and_generic_methods_have_display_names_without_arity() -> None:
    nested = bound_at("nested")
    assert nested["method"] == "Samples.Symbols.Dog.Collar.Describe"
    assert nested["parameters"] == ["size"] and nested["isStatic"] is False
    assert [loc["name"] for loc in nested["locals"]] == ["text"]
    generic = bound_at("generic")
    assert generic["method"] == "Samples.Symbols.Box.First"
    assert generic["parameters"] == ["fallback"]


def test_type_metadata_names_fields_properties_and_base_types() -> None:
    types = selftest("Program.cs", 1)["types"]
    animal = types["Samples.Symbols.Animal"]
    assert [f["display"] for f in animal["fields"]] == ["Name", "legs", "MaxLegs", "Count"]
    assert animal["fields"][0]["name"] == "<Name>k__BackingField"
    assert animal["fields"][2]["literal"] is True and animal["fields"][3]["static"] is True
    assert animal["base"] == "System.Object"
    assert types["Samples.Symbols.Dog"]["base"] == "Samples.Symbols.Animal"
    assert types["Samples.Symbols.Dog"]["properties"] == [{"name": "Barks", "hasGetter": True, "static": False}]
    assert types["Samples.Symbols.Box`1"]["base"] == "System.Collections.Generic.List`1"
    assert "Samples.Symbols.Dog.Collar" in types
