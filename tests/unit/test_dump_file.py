"""The ELF check before a dump is opened: a file shorter than its program headers claim is
cut, said in bytes; an entry damaged in place (running into the next segment) claims nothing."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from pyinspect.errors import DumpError
from pyinspect.heap.dump_file import check_dump_file, claimed_length

PT_LOAD = 1
HEADER, ENTRY = 64, 56


def _core(path: Path, segments: list[tuple[int, int]], length: int) -> Path:
    """An ELF64 core whose PT_LOAD entries place (offset, size) in the file, written to length bytes."""
    header = bytearray(HEADER)
    header[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<QQ", header, 0x20, HEADER, 0)
    struct.pack_into("<HHHH", header, 0x36, ENTRY, len(segments), 0, 0)
    table = b"".join(struct.pack("<IIQQQQQQ", PT_LOAD, 4, offset, 0x1000 * i, 0, size, size, 0x1000)
                     for i, (offset, size) in enumerate(segments))
    body = bytes(header) + table
    path.write_bytes(body + bytes(max(0, length - len(body))))
    return path


def test_a_whole_core_claims_its_own_length_and_passes(tmp_path: Path) -> None:
    core = _core(tmp_path / "whole", [(4096, 4096), (8192, 8192)], 16384)
    assert claimed_length(core) == 16384
    check_dump_file(core)


def test_a_cut_core_is_said_cut_at_n_of_m_bytes(tmp_path: Path) -> None:
    core = _core(tmp_path / "cut", [(4096, 4096), (8192, 8192)], 9830)
    with pytest.raises(DumpError, match="is cut at 9830 of 16384 bytes"):
        check_dump_file(core)


def test_an_entry_running_into_the_next_segment_is_damaged_not_a_cut(tmp_path: Path) -> None:
    core = _core(tmp_path / "flipped", [(4096 + (1 << 40), 4096), (8192, 8192)], 16384)
    assert claimed_length(core) == 16384
    check_dump_file(core)


def test_a_file_that_is_no_elf_core_is_refused(tmp_path: Path) -> None:
    (tmp_path / "text").write_text("not a dump at all, but long enough to hold a header" * 2)
    with pytest.raises(DumpError, match="no ELF header"):
        check_dump_file(tmp_path / "text")
    with pytest.raises(DumpError, match="not found"):
        check_dump_file(tmp_path / "missing")
