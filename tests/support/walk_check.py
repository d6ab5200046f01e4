"""Our heap walk beside ClrMD's, object by object, through the helper's test entry
(PyInspect.Heap.HeapWalkCheck); the graph's dominators and retained sizes beside an
independent method's and its disk-backed build beside the in-memory one (GraphCheck); and a
copy of a core dump with bytes of one address zeroed."""

from __future__ import annotations

import json
import shutil
import struct
import tempfile
from pathlib import Path
from typing import Any

from pyinspect.heap import HeapReader
from pyinspect.heap.helper_calls import TARGET

PT_LOAD = 1


def compare_walks(reader: HeapReader, max_differences: int = 20) -> dict[str, Any]:
    """{objects, references, freeObjects, segments, differences, problems, clrmdUntyped}."""
    text = str(reader.call("HeapWalkCheck", "Compare", TARGET, max_differences))
    result: dict[str, Any] = json.loads(text)
    return result


def assert_walks_equal(reader: HeapReader) -> dict[str, Any]:
    """Every object (address, type, size) and every reference equal, nothing unreadable."""
    result = compare_walks(reader)
    assert result["differences"] == [], result["differences"]
    assert (result["problems"], result["clrmdUntyped"]) == ([], 0), (result["problems"], result["clrmdUntyped"])
    assert result["objects"] > 1000 and result["references"] > 1000 and result["segments"] > 0, result
    assert_graph_equal(reader)
    return result


def assert_graph_equal(reader: HeapReader) -> dict[str, Any]:
    """Every object's immediate dominator and retained size equal an independent method's
    (Cooper-Harvey-Kennedy), the per-type retained sizes (on 1 to 4 cores) and predecessor
    lists equal plain ones, and the graph built with its arrays in files (a memory limit of
    one byte) equal to the one in memory, every array element by element; the public answer
    built that way says which folder held it."""
    with tempfile.TemporaryDirectory(prefix="pyinspect-graph-") as folder:
        text = str(reader.call("GraphCheck", "Compare", TARGET, folder, 20))
        result: dict[str, Any] = json.loads(text)
        assert (result["idomDifferences"], result["retainedDifferences"]) == ([], []), result
        assert result["treeDifferences"] == [], result["treeDifferences"]
        assert result["diskDifferences"] == [], result["diskDifferences"]
        assert (result["memoryFolder"], result["diskFolder"]) == (None, folder), result
        assert result["live"] > 1000 and result["edges"] > 1000, result
        in_memory, on_disk = reader.graph(), reader.graph(work_folder=folder, memory_limit=1)
        assert (in_memory.summary().work_folder, on_disk.summary().work_folder) == (None, folder)
        assert on_disk.retained(top=50) == in_memory.retained(top=50)
        assert list(Path(folder).iterdir()) == []  # the arrays' files are unlinked at creation
    return result


def file_offset(dump: Path, address: int) -> int:
    """Where the byte at a virtual address lies in an ELF core file (its PT_LOAD headers)."""
    with dump.open("rb") as f:
        header = f.read(64)
        assert header[:4] == b"\x7fELF" and header[4] == 2, "a 64-bit ELF core file"
        phoff, = struct.unpack_from("<Q", header, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", header, 0x36)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    for i in range(phnum):
        kind, _, offset, vaddr, _, filesz, _, _ = struct.unpack_from("<IIQQQQQQ", table, i * phentsize)
        if kind == PT_LOAD and vaddr <= address < vaddr + filesz:
            return int(offset + address - vaddr)
    raise AssertionError(f"{address:#x} is not in the dump")


def zeroed_copy(dump: Path, address: int, length: int, out: Path) -> Path:
    """A copy of dump with [address, address + length) zeroed (an object's header, say)."""
    shutil.copyfile(dump, out)
    with out.open("r+b") as f:
        f.seek(file_offset(out, address))
        f.write(bytes(length))
    return out
