"""collection_analyze read from the heap equals what the debuggee computed of itself."""

from __future__ import annotations

import pytest
from memory_truth import MemoryTarget, expected_summary

from pyinspect.errors import InvalidParameterError, NotAnObjectError, NotCollectionError
from pyinspect.heap import HeapReader

ALL_KINDS = [
    "Ints", "Doubles", "Infinities", "Floats", "Decimals", "Longs", "WithNulls", "Points", "Mixed",
    "Animals", "Dict", "Orders", "Set", "Queue", "Stack", "Linked", "Sorted", "SortedSet", "Concurrent",
    "ConcurrentQueue", "ArrayList", "Hashtable", "BoxedImmutableArray", "ImmutableList", "Array", "Grid",
    "Jagged", "Empty", "Large",
]


@pytest.mark.parametrize("name", ALL_KINDS)
def test_every_collection_kind_matches_the_debuggees_own_enumeration(
        reader: HeapReader, memory_target: MemoryTarget, name: str) -> None:
    want = memory_target.collection(name)
    got = reader.analyze_collection(want["address"], max_preview_items=5, timeout_ms=20_000)
    assert got.address == want["address"]
    assert got.to_contract() == expected_summary(want)


def test_list_with_capacity_far_above_count_shows_only_its_items(
        reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.collection("Ints")
    got = reader.analyze_collection(want["address"], max_preview_items=50)
    assert got.count == 10 and len(got.first_elements or ()) == 10
    assert [e.value for e in got.first_elements or ()] == ["5", "-3", "12", "7", "0", "42", "8", "-11", "6", "9"]
    assert [e.index for e in got.last_elements or ()] == list(range(10))


def test_queue_that_wrapped_around_its_buffer_starts_at_its_head(
        reader: HeapReader, memory_target: MemoryTarget) -> None:
    got = reader.analyze_collection(memory_target.collection("Queue")["address"], max_preview_items=50)
    assert [e.value for e in got.first_elements or ()] == ["6", "7", "8", "9", "10", "11", "12"]


def test_stack_is_read_from_the_top(reader: HeapReader, memory_target: MemoryTarget) -> None:
    got = reader.analyze_collection(memory_target.collection("Stack")["address"], max_preview_items=50)
    assert [e.value for e in got.first_elements or ()] == ['"top"', "null", '"middle"', '"bottom"']
    assert got.null_count == 1


def test_dictionary_after_removals_skips_free_entries(reader: HeapReader, memory_target: MemoryTarget) -> None:
    got = reader.analyze_collection(memory_target.collection("Dict")["address"], max_preview_items=50)
    keys = [p.key for p in got.key_value_pairs or ()]
    assert got.count == 8 and len(keys) == 8
    assert '"k2"' not in keys and '"k5"' not in keys and '"k7"' not in keys and '"new"' in keys


def test_nan_makes_min_nan_but_max_ignores_it_as_linq_does(reader: HeapReader, memory_target: MemoryTarget) -> None:
    stats = reader.analyze_collection(memory_target.collection("Doubles")["address"]).numeric_stats
    assert stats is not None and (stats.min, stats.max, stats.average) == ("NaN", "10", "NaN")


def test_preview_size_is_honoured(reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.collection("Large")
    got = reader.analyze_collection(want["address"], max_preview_items=1, timeout_ms=20_000)
    assert [(e.index, e.value) for e in got.first_elements or ()] == [(0, want["first"][0]["value"])]
    assert [e.index for e in got.last_elements or ()] == [want["count"] - 1]


def test_a_spent_time_budget_samples_and_says_how_many_were_read(
        reader: HeapReader, memory_target: MemoryTarget) -> None:
    want = memory_target.collection("Large")
    got = reader.analyze_collection(want["address"], timeout_ms=1)
    assert got.is_sampled and got.sampled_count is not None
    assert 0 < got.sampled_count < want["count"] and got.count == want["count"]
    assert got.last_elements is None  # never the sample's end labelled as the collection's
    assert got.to_contract()["sampledCount"] == got.sampled_count


def test_an_object_that_is_no_collection_is_not_collection(reader: HeapReader, memory_target: MemoryTarget) -> None:
    with pytest.raises(NotCollectionError, match="MemoryTruth.Customer"):
        reader.analyze_collection(memory_target.collection("notACollection"))


@pytest.mark.parametrize("preview", [0, 51])
def test_preview_outside_1_to_50_is_rejected(reader: HeapReader, memory_target: MemoryTarget, preview: int) -> None:
    with pytest.raises(InvalidParameterError):
        reader.analyze_collection(memory_target.collection("Ints")["address"], max_preview_items=preview)


def test_an_address_that_is_no_object_is_not_an_object(reader: HeapReader, memory_target: MemoryTarget) -> None:
    with pytest.raises(NotAnObjectError):
        reader.analyze_collection(int(memory_target.collection("Ints")["address"], 16) + 4)
