"""The first look at a core dump file, before any DAC is asked about it: is it whole?

A dump cut in transfer (a full disk, a copy stopped half way) would otherwise be blamed on
the DAC ("no DAC matching") or answered from the part that is left. An ELF core file
says how long it must be: the end of its furthest segment or section (program and section
headers). A file shorter than that is cut, and said so in bytes.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

from pyinspect.errors import DumpError

__all__ = ["check_dump_file", "claimed_length"]

_ELF_MAGIC = b"\x7fELF"
_ELF64 = 2
_LITTLE_ENDIAN = 1
_PT_LOAD, _PT_NOTE = 1, 4
_SHT_NOBITS = 8


def check_dump_file(path: Path) -> None:
    """DumpError when the file is missing, is no 64-bit ELF core, or is shorter than its headers claim."""
    if not path.is_file():
        raise DumpError(f"dump file not found: {path}", path=str(path))
    actual = path.stat().st_size
    claimed = claimed_length(path)
    if claimed > actual:
        raise DumpError(f"the dump {path} is cut at {actual} of {claimed} bytes (its ELF headers claim "
                        f"{claimed}): copy it again whole", path=str(path), length=actual, claimed=claimed)


def claimed_length(path: Path) -> int:
    """The length an ELF64 file's headers claim: the end of its furthest program segment
    or section, and of the header tables themselves."""
    with path.open("rb") as f:
        header = f.read(64)
        if len(header) < 64 or header[:4] != _ELF_MAGIC:
            raise DumpError(f"not a core dump (no ELF header): {path}", path=str(path))
        if header[4] != _ELF64 or header[5] != _LITTLE_ENDIAN:
            raise DumpError(f"not a 64-bit little-endian ELF core dump: {path}", path=str(path))
        phoff, shoff = struct.unpack_from("<QQ", header, 0x20)
        phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", header, 0x36)
        end = max(64, phoff + phentsize * phnum, shoff + shentsize * shnum if shnum else 0)
        end = max(end, _program_end(f, phoff, phentsize, phnum))
        return int(max(end, _sections_end(f, shoff, shentsize, shnum)))


def _program_end(f: BinaryIO, offset: int, size: int, count: int) -> int:
    """The end of the furthest segment in the file. createdump lays segments out in header
    order, each after the one before: an entry running into the next one's bytes was damaged
    (a flipped byte in its offset or size), not cut, and claims nothing."""
    table = _table(f, offset, size * count)
    placed = []
    for i in range(len(table) // size if size else 0):
        kind, _, file_offset, _, _, file_size = struct.unpack_from("<IIQQQQ", table, i * size)
        if kind in (_PT_LOAD, _PT_NOTE) and file_size:
            placed.append((file_offset, file_offset + file_size))
    end = 0
    for i, (start, stop) in enumerate(placed):
        if i + 1 < len(placed) and not start <= stop <= placed[i + 1][0]:
            continue
        end = max(end, stop)
    return end


def _sections_end(f: BinaryIO, offset: int, size: int, count: int) -> int:
    table = _table(f, offset, size * count)
    end = 0
    for i in range(len(table) // size if size and count else 0):
        _, kind, _, _, file_offset, file_size = struct.unpack_from("<IIQQQQ", table, i * size)
        if kind != _SHT_NOBITS and file_size:
            end = max(end, file_offset + file_size)
    return end


def _table(f: BinaryIO, offset: int, length: int) -> bytes:
    """A header table's bytes; what a cut file lacks of it is simply missing (the headers'
    own end is already counted in the claim)."""
    f.seek(offset)
    return f.read(length)
