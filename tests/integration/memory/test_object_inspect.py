"""object_inspect's heap side: offsets, sizes, cycles and depth limits against the debuggee's truth."""

from __future__ import annotations

from typing import Any

import pytest
from memory_truth import MemoryTarget

from pyinspect.errors import DepthExceededError
from pyinspect.heap import HeapReader
from pyinspect.models import HeapField


def flatten(fields: tuple[HeapField, ...], prefix: str = "") -> dict[str, HeapField]:
    flat: dict[str, HeapField] = {}
    for field in fields:
        flat[prefix + field.name] = field
        if field.is_value_type and field.fields:
            flat.update(flatten(field.fields, prefix + field.name + "."))
    return flat


def assert_fields_match(fields: tuple[HeapField, ...], expected: dict[str, Any]) -> None:
    flat = flatten(fields)
    for name, want in expected.items():
        got = flat[name]
        assert (name, got.offset, got.size, got.value) == (name, want["offset"], want["size"], want["value"])


def test_fields_have_offsets_sizes_and_real_values(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["customer"]
    obj = reader.object(want["address"])
    assert (obj.address, obj.type_name, obj.size) == (want["address"], want["typeName"], want["size"])
    assert_fields_match(obj.fields, want["offsets"])


def test_nested_structs_have_offsets_from_the_containing_object(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["box"]
    obj = reader.object(want["address"])
    assert obj.size == want["size"]
    assert_fields_match(obj.fields, want["fields"])


def test_self_reference_is_a_circular_ref(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["self"]
    inspection = reader.object(want["address"], depth=5).to_inspection()
    assert inspection["hasCircularRef"] and not inspection["isNull"]
    self_field = next(f for f in inspection["fields"] if f["name"] == "Self")
    assert self_field["address"] == want["address"] and "fields" not in self_field
    assert_fields_match(reader.object(want["address"]).fields, want["fields"])


def test_a_chain_deeper_than_ten_is_truncated_at_depth_ten(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["chain"]
    inspection = reader.object(want["address"], depth=10).to_inspection()
    assert inspection["truncated"] and not inspection["hasCircularRef"]
    seen = []
    level: dict[str, Any] | None = {"fields": inspection["fields"], "address": inspection["address"]}
    while level is not None:
        seen.append(level["address"])
        level = next((f for f in level.get("fields", ()) if f["name"] == "Next"), None)
    assert seen == want["links"][:11]


def test_depth_above_ten_is_depth_exceeded(reader: HeapReader, memory_target: MemoryTarget) -> None:
    with pytest.raises(DepthExceededError):
        reader.object(memory_target.truth["chain"]["address"], depth=11)


def test_a_whole_short_chain_is_not_truncated(reader: HeapReader, memory_target: MemoryTarget) -> None:
    links = memory_target.truth["chain"]["links"]
    inspection = reader.object(links[-3], depth=3).to_inspection()
    assert not inspection["truncated"]
