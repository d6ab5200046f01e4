"""The heap reader's answers equal what the debuggee measured of itself, live and in a dump."""

from __future__ import annotations

from typing import Any

from heaptruth import TruthTarget

from pyinspect.heap import HeapReader
from pyinspect.models import HeapField, HeapObject


def flatten(fields: tuple[HeapField, ...], prefix: str = "") -> dict[str, HeapField]:
    """Fields by dotted name, descending into embedded structs only."""
    flat: dict[str, HeapField] = {}
    for field in fields:
        flat[prefix + field.name] = field
        if field.is_value_type and field.fields:
            flat.update(flatten(field.fields, prefix + field.name + "."))
    return flat


def assert_object_matches(obj: HeapObject, expected: dict[str, Any]) -> None:
    assert obj.address == expected["address"]
    assert obj.type_name == expected["typeName"]
    assert obj.size == expected["size"]
    fields = flatten(obj.fields)
    for name, want in expected["fields"].items():
        got = fields[name]
        assert (name, got.offset, got.size, got.value) == (name, want["offset"], want["size"], want["value"])


def test_class_fields_including_base_class_and_embedded_struct_match_truth(
        reader: HeapReader, truth_target: TruthTarget) -> None:
    truth = truth_target.truth
    dog = reader.object(truth["dog"]["address"])
    assert_object_matches(dog, truth["dog"])
    assert len(flatten(dog.fields)) == len(truth["dog"]["fields"])


def test_nulls_and_plain_object_match_truth(reader: HeapReader, truth_target: TruthTarget) -> None:
    friend = reader.object(truth_target.truth["friend"]["address"])
    assert_object_matches(friend, truth_target.truth["friend"])
    name = friend.field("Name")
    assert name.is_null and not name.has_children and name.address is None


def test_array_fields_are_formatted_with_their_dimensions(reader: HeapReader, truth_target: TruthTarget) -> None:
    assert_object_matches(reader.object(truth_target.truth["holder"]["address"]), truth_target.truth["holder"])


def test_self_reference_is_reported_as_a_cycle_not_expanded(reader: HeapReader, truth_target: TruthTarget) -> None:
    dog = reader.object(truth_target.truth["dog"]["address"], depth=3)
    assert dog.has_circular_ref
    self_field = dog.field("Self")
    assert self_field.is_circular_ref and self_field.fields is None
    assert self_field.address == truth_target.truth["dog"]["address"]
    friend = dog.field("Friend")
    assert friend.fields is not None
    assert friend.address == truth_target.truth["friend"]["address"]
    assert {f.name: f.offset for f in friend.fields} == {
        k: v["offset"] for k, v in truth_target.truth["friend"]["fields"].items()}


def test_depth_one_marks_unexpanded_references_as_truncated(reader: HeapReader, truth_target: TruthTarget) -> None:
    dog = reader.object(truth_target.truth["dog"]["address"], depth=1)
    assert dog.truncated
    assert dog.field("Friend").fields is None and dog.field("Friend").has_children


def test_non_ascii_string_reads_back_exactly(reader: HeapReader, truth_target: TruthTarget) -> None:
    expected = truth_target.truth["name"]
    assert reader.read_string(expected["address"]) == expected["text"]
    obj = reader.object(expected["address"])
    assert obj.is_string and obj.string_value == expected["text"]
    assert obj.size == expected["size"] and obj.type_name == "System.String"


def test_arrays_one_dimensional_multi_dimensional_and_jagged_match_truth(
        reader: HeapReader, truth_target: TruthTarget) -> None:
    for key in ("numbers", "grid", "jagged", "words"):
        expected = truth_target.truth[key]
        array = reader.object(expected["address"])
        assert array.is_array and array.type_name == expected["typeName"], key
        assert array.size == expected["size"], key
        assert array.array_length == expected["length"], key
        assert list(array.dimensions or ()) == expected["dimensions"], key
        got = {e.name: (e.offset, e.value) for e in array.fields}
        want = {name: (e["offset"], e["value"]) for name, e in expected["elements"].items()}
        assert got == want, key


def test_array_elements_can_be_paged(reader: HeapReader, truth_target: TruthTarget) -> None:
    expected = truth_target.truth["numbers"]
    page = reader.array_elements(expected["address"], start=1, count=5)
    assert [(e.name, e.offset, e.value) for e in page] == [
        (n, e["offset"], e["value"]) for n, e in list(expected["elements"].items())[1:]]


def test_stats_count_the_debuggee_types(reader: HeapReader, truth_target: TruthTarget) -> None:
    stats = {row.type: row for row in reader.stats()}
    dog = stats["HeapTruth.Dog"]
    assert (dog.count, dog.total_size) == (1, truth_target.truth["dog"]["size"])
    assert stats["HeapTruth.Holder"].count == 1
    assert stats["HeapTruth.Animal"].count == 1


def test_static_fields_read_their_values(reader: HeapReader, truth_target: TruthTarget) -> None:
    expected = truth_target.truth["statics"]
    statics = {f.name: f for f in reader.statics(expected["typeName"])}
    assert statics["Counter"].value == expected["Counter"]
    assert statics["Label"].value == expected["Label"]
    assert statics["Label"].address == expected["labelAddress"]
    assert statics["Nobody"].is_null and statics["Nobody"].value == "null"
