"""Our own heap walk equals ClrMD's, object by object (address, type, size, references),
on MemoryTruth under .NET 8, 9 (self-contained) and 10, live and from each one's dump."""

from __future__ import annotations

from support.walk_check import assert_walks_equal

from pyinspect.heap import HeapReader


def test_the_walk_equals_clrmds_live_and_from_the_dump(live_reader: HeapReader, dump_reader: HeapReader) -> None:
    assert_walks_equal(live_reader)
    assert_walks_equal(dump_reader)
