"""Damaged copies of one real core dump, made with fixed seeds: bytes flipped across the GC
heap, one segment zeroed, the file cut. Each is a new file beside the original."""

from __future__ import annotations

import random
import shutil
from collections.abc import Sequence
from pathlib import Path

from support.walk_check import file_offset


def flipped_copy(dump: Path, ranges: Sequence[tuple[int, int]], count: int, seed: int, out: Path) -> Path:
    """A copy with ``count`` random bytes written at random addresses inside ``ranges``
    (the heap's segments), a fixed seed choosing both."""
    shutil.copyfile(dump, out)
    rng = random.Random(seed)
    sizes = [end - start for start, end in ranges]
    with out.open("r+b") as f:
        for _ in range(count):
            start, end = rng.choices(ranges, weights=sizes)[0]
            f.seek(file_offset(out, rng.randrange(start, end)))
            f.write(bytes([rng.randrange(256)]))
    return out


def zeroed_copy(dump: Path, start: int, end: int, out: Path) -> Path:
    """A copy with the memory [start, end) zeroed (one segment's objects)."""
    shutil.copyfile(dump, out)
    with out.open("r+b") as f:
        address = start
        while address < end:  # page by page: a segment may span several PT_LOAD entries
            length = min(end, (address // 4096 + 1) * 4096) - address
            f.seek(file_offset(out, address))
            f.write(bytes(length))
            address += length
    return out


def cut_copy(dump: Path, fraction: float, out: Path) -> Path:
    """The first ``fraction`` of the file, as a transfer stopped half way leaves it."""
    with dump.open("rb") as source, out.open("wb") as target:
        target.write(source.read(int(dump.stat().st_size * fraction)))
    return out
