"""Heap reads on every supported runtime, live and from a dump made by the target's own
createdump, equal the debuggee's own truth; the DAC and createdump are the target's."""

from __future__ import annotations

from pathlib import Path

from runtime_targets import VERSION_PREFIX, RuntimeTarget, published
from support.memory_contract import expected_summary

from pyinspect.heap import HeapReader
from pyinspect.targets.runtimes import runtime_of

COLLECTIONS = ["Ints", "Dict", "Queue", "Stack", "Set", "Sorted", "Concurrent", "ImmutableList", "Grid", "Large"]


def test_the_target_runtime_is_the_one_it_was_published_with(runtime_target: RuntimeTarget) -> None:
    runtime = runtime_of(runtime_target.pid)
    assert runtime.version.startswith(VERSION_PREFIX[runtime_target.framework])
    assert runtime.self_contained is runtime_target.self_contained
    if runtime.self_contained:
        assert Path(runtime.folder) == published(runtime_target.framework).resolve()
    assert runtime.dac_path == f"{runtime.folder}/libmscordaccore.so"
    assert runtime.createdump_path == f"{runtime.folder}/createdump"


def test_object_inspect_live_and_from_the_dump_equals_the_truth(
        runtime_target: RuntimeTarget, live_reader: HeapReader, dump_reader: HeapReader) -> None:
    want = runtime_target.truth["customer"]
    for reader in (live_reader, dump_reader):
        obj = reader.object(want["address"])
        assert (obj.address, obj.type_name, obj.size) == (want["address"], want["typeName"], want["size"])
        fields = {f.name: f for f in obj.fields}
        for name, field in want["offsets"].items():
            if "." in name:
                continue
            got = fields[name]
            assert (name, got.offset, got.size, got.value) == (name, field["offset"], field["size"], field["value"])


def test_collection_analyze_live_and_from_the_dump_equals_the_truth(
        runtime_target: RuntimeTarget, live_reader: HeapReader, dump_reader: HeapReader) -> None:
    for name in COLLECTIONS:
        want = runtime_target.truth["collections"][name]
        for reader in (live_reader, dump_reader):
            got = reader.analyze_collection(want["address"], max_preview_items=5, timeout_ms=20_000)
            assert (name, got.to_contract()) == (name, expected_summary(want))


def test_heap_stats_live_equal_the_dumps(live_reader: HeapReader, dump_reader: HeapReader) -> None:
    live = {row.type: (row.count, row.total_size) for row in live_reader.stats()}
    dumped = {row.type: (row.count, row.total_size) for row in dump_reader.stats()}
    assert live["MemoryTruth.Bag"] == dumped["MemoryTruth.Bag"] == (1, live["MemoryTruth.Bag"][1])
    assert live["MemoryTruth.Customer"][0] >= 1
    assert live == dumped, "the debuggee waits on stdin: nothing allocates between the two reads"
