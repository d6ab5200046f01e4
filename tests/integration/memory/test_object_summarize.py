"""object_summarize read from the heap equals what the debuggee knows of its own fields."""

from __future__ import annotations

from memory_truth import MemoryTarget

from pyinspect.heap import HeapReader


def test_every_field_has_its_real_value_and_static_type(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["customer"]
    summary = reader.summarize_object(want["address"])
    assert (summary.type_name, summary.size, summary.is_null) == (want["typeName"], want["size"], False)
    assert (summary.total_field_count, summary.inaccessible_field_count) == (want["totalFieldCount"], 0)
    assert {f.name: {"type": f.type, "value": f.value} for f in summary.fields} == want["fields"]


def test_decimal_dates_and_guids_are_values_not_type_names(reader: HeapReader, memory_target: MemoryTarget) -> None:
    summary = reader.summarize_object(memory_target.truth["customer"]["address"])
    assert summary.field("Balance").value == "1234.56"
    assert summary.field("CreatedAt").value == "2026-01-15T10:30:00Z"
    assert summary.field("Seen").value == "2026-01-15T10:30:00+02:00"
    assert summary.field("Token").value == "0f8fad5b-d9cb-469f-a165-70867728950e"


def test_null_fields_and_collections_are_listed(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["customer"]
    summary = reader.summarize_object(want["address"])
    assert sorted(summary.null_fields) == sorted(want["nullFields"])
    collections = {f.name: [f.collection_count, f.collection_element_type]
                   for f in summary.fields if f.collection_count is not None}
    assert collections == want["collections"]


def test_every_interesting_reason_fires_on_real_values(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.truth["customer"]
    summary = reader.summarize_object(want["address"])
    assert {f.name: f.reason for f in summary.interesting_fields} == want["interesting"]
    for field in summary.interesting_fields:
        assert (field.type, field.value) == (want["fields"][field.name]["type"], want["fields"][field.name]["value"])


def test_contract_shape_has_exactly_the_contract_keys(reader: HeapReader, memory_target: MemoryTarget) -> None:
    data = reader.summarize_object(memory_target.truth["customer"]["address"]).to_contract()
    assert set(data) == {"typeName", "size", "isNull", "totalFieldCount", "inaccessibleFieldCount",
                         "fields", "nullFields", "interestingFields"}
    assert set(data["fields"][0]) == {"name", "type", "value", "collectionCount", "collectionElementType"}
    assert set(data["interestingFields"][0]) == {"name", "type", "value", "reason"}


def test_collection_fields_preview_their_first_elements_as_collection_analyze_reads_them(
        reader: HeapReader, memory_target: MemoryTarget) -> None:
    address = memory_target.truth["customer"]["address"]
    layout = reader.object(address)
    for preview in (1, 2, 50):
        summary = reader.summarize_object(address, max_preview_items=preview)
        collections = [f for f in summary.fields if f.collection_count is not None]
        assert collections
        for field in collections:
            analysis = reader.analyze_collection(layout.field(field.name).address or "", max_preview_items=preview)
            if analysis.key_value_pairs is not None:
                want = [f"{p.key}: {p.value}" for p in analysis.key_value_pairs]
            else:
                want = [e.value for e in analysis.first_elements or ()]
            assert list(field.collection_preview or ()) == want, field.name
            assert len(want) == min(preview, field.collection_count or 0)
    data = reader.summarize_object(address, max_preview_items=1).to_contract()
    assert all(("collectionPreview" in f) == (f["collectionCount"] is not None) for f in data["fields"])
