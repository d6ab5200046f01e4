"""Text helpers of the inspection answers: short function names, path splitting, hex and
binary renderings, C# literals, the struct rules and the evaluation result value."""

from __future__ import annotations

import copy
import pickle

import pytest

from pyinspect.errors import InvalidParameterError
from pyinspect.notebook.values import EvalResult, csharp_literal
from pyinspect.session.memory_reads import struct_reason
from pyinspect.session.value_text import format_number, function_name, split_path


@pytest.mark.parametrize(("dap_name", "short"), [
    ("Shop.OrderService.Place(int id)", "Place"),
    ("Program.Main()", "Main"),
    ("Ns.Type.Convert<int, string>", "Convert<int, string>"),
    ("Main", "Main"),
])
def test_function_names_are_the_method_alone(dap_name: str, short: str) -> None:
    assert function_name(dap_name) == short


def test_paths_split_into_members_and_indexers() -> None:
    assert split_path("this._items[2].Name") == ["this", "_items", "[2]", "Name"]
    assert split_path('map["a.b"]') == ['map', '["a.b"]']
    assert split_path(" order . Total ") == ["order", "Total"]


@pytest.mark.parametrize(("text", "type_name", "fmt", "shown"), [
    ("255", "int", "hex", "0xff"),
    ("-1", "int", "hex", "0xffffffff"),
    ("-1", "System.Int16", "hex", "0xffff"),
    ("-1", "long", "hex", "0xffffffffffffffff"),
    ("5", "byte", "binary", "0b101"),
    ("-2", "sbyte", "binary", "0b11111110"),
    ("2.5", "double", "hex", "2.5"),
    ("255", "int", "default", "255"),
    ('"text"', "string", "hex", '"text"'),
])
def test_integers_render_in_the_types_width(text: str, type_name: str, fmt: str, shown: str) -> None:
    assert format_number(text, type_name, fmt) == shown


@pytest.mark.parametrize(("value", "literal"), [
    (None, "null"), (True, "true"), (False, "false"), (42, "42"), (-2.5, "-2.5"),
    ('say "hi"\n', '"say \\"hi\\"\\n"'), ("é", '"\\u00e9"'),
])
def test_python_values_become_csharp_literals(value: str | float | bool | None, literal: str) -> None:
    assert csharp_literal(value) == literal


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_numbers_without_a_csharp_literal_are_refused(value: float) -> None:
    with pytest.raises(InvalidParameterError):
        csharp_literal(value)


@pytest.mark.parametrize(("shown", "reason"), [
    ('""', "empty_string"), ("NaN", "nan"), ("Infinity", "infinity"), ("-Infinity", "infinity"),
    ("{0001-01-01T00:00:00.0000000}", "default_datetime"),
    ("{00000000-0000-0000-0000-000000000000}", "default_guid"),
    ("0", None), ('"x"', None), ("{2024-01-01T00:00:00.0000000}", None),
])
def test_struct_fields_get_the_heap_summarizers_reasons(shown: str, reason: str | None) -> None:
    assert struct_reason(shown) == reason


def test_an_eval_result_is_its_text_with_a_type() -> None:
    result = EvalResult("12.5", "decimal", has_children=False)
    assert result == "12.5" and str(result) == "12.5" and f"{result}" == "12.5" and result.text == "12.5"
    assert (result.type, result.has_children) == ("decimal", False)
    assert "decimal" in repr(result)
    for copied in (copy.deepcopy(result), pickle.loads(pickle.dumps(result))):
        assert (copied, copied.type, copied.has_children) == ("12.5", "decimal", False)
