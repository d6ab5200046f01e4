"""pyinspect's threads, stacks and locks against Microsoft's SOS (dotnet-dump analyze, pinned and
installed by build.py into tests/.tools) on the same HangShape crash dump (.NET 10), record by
record: every thread's OS and managed id (SOS `clrthreads`), every managed frame with a source
line (`clrstack -all`), every sync block lock's object, owner and waiter count (`syncblk`).
Where SOS shows less (thin locks: `syncblk` lists only inflated monitors) the test says so."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.hangshape import Hang

from pyinspect.heap import HeapReader

DOTNET_DUMP = Path(__file__).resolve().parents[2] / ".tools" / "dotnet-dump"
pytestmark = pytest.mark.timeout(600)

_THREAD_ROW = re.compile(r"^\s*(?:\d+|XXXX)\s+(\d+)\s+([0-9a-f]+)\s+[0-9A-F]{16}\s", re.MULTILINE)
_SYNC_ROW = re.compile(r"^\s*\d+\s+[0-9A-F]{16}\s+(\d+)\s+(\d+)\s+(?:[0-9A-F]{16}\s+([0-9a-f]+)\s+\d+|none)\s+"
                       r"([0-9a-f]{16})\s+(\S+)", re.MULTILINE)
_FRAME_LINE = re.compile(r"^\s*[0-9A-Fa-f]{16} [0-9A-Fa-f]{16} ([^(\[]+)\(.*\) \[(.+) @ (\d+)\]\s*$")


@dataclass(frozen=True)
class SosView:
    threads: set[tuple[int, int]]  # (OS id, managed id)
    frames: dict[int, list[tuple[str, int]]]  # OS id -> (method, line) of frames with a line, leaf first
    sync_blocks: dict[int, tuple[int | None, int, int]]  # object -> (owner OS id, monitor held, recursion)


@pytest.fixture(scope="module")
def framework() -> str:
    return "net10.0"


@pytest.fixture(scope="module")
def sos(crash: tuple[Hang, Path]) -> SosView:
    if not DOTNET_DUMP.exists():
        pytest.fail(f"dotnet-dump is not installed at {DOTNET_DUMP}; run `python3 build.py`")
    result = subprocess.run([str(DOTNET_DUMP), "analyze", str(crash[1]), "-c", "clrthreads", "-c", "syncblk",
                             "-c", "clrstack -all", "-c", "exit"], capture_output=True, text=True, timeout=300,
                            check=True)
    return parse(result.stdout)


def parse(text: str) -> SosView:
    threads_part, _, rest = text.partition("SyncBlock Owner")
    sync_part, _, stacks_part = rest.partition("OS Thread Id:")
    threads = {(int(os_id, 16), int(managed)) for managed, os_id in _THREAD_ROW.findall(threads_part)}
    sync_blocks = {int(obj, 16): (int(owner, 16) if owner else None, int(held), int(recursion))
                   for held, recursion, owner, obj, _ in _SYNC_ROW.findall(sync_part)}
    frames: dict[int, list[tuple[str, int]]] = {}
    for block in ("OS Thread Id:" + stacks_part).split("OS Thread Id: ")[1:]:
        header, *lines = block.splitlines()
        found = [_FRAME_LINE.search(line) for line in lines]
        frames[int(header.split()[0], 16)] = [(m.group(1).strip(), int(m.group(3))) for m in found if m]
    return SosView(threads, frames, sync_blocks)


def test_every_threads_os_and_managed_id_agree_with_sos(sos: SosView, crash: tuple[Hang, Path]) -> None:
    with HeapReader.open_dump(crash[1]) as reader:
        ours = {(t.os_thread_id, t.managed_thread_id) for t in reader.threads() if t.os_thread_id}
    assert {t for t in sos.threads if t[0]} == ours
    named = {(t["osThreadId"], t["managedThreadId"]) for t in crash[0].truth["threads"]}
    assert named <= ours  # and both agree with what the program said


def test_every_managed_frame_with_a_line_agrees_with_sos(sos: SosView, crash: tuple[Hang, Path]) -> None:
    with HeapReader.open_dump(crash[1]) as reader:
        threads = reader.threads()
    compared = 0
    for thread in threads:
        ours = [(f.method.split("(", 1)[0], f.line) for f in thread.frames if f.line is not None]
        assert ours == sos.frames.get(thread.os_thread_id, []), thread.name
        compared += len(ours)
    assert compared >= len(crash[0].truth["threads"])  # every started thread has frames with lines


def test_every_sync_block_lock_agrees_with_sos_and_thin_locks_are_what_sos_misses(
        sos: SosView, crash: tuple[Hang, Path]) -> None:
    with HeapReader.open_dump(crash[1]) as reader:
        locks = {int(lk.object, 16): lk for lk in reader.locks().locks if lk.kind == "monitor"}
    held = {obj: entry for obj, entry in sos.sync_blocks.items() if entry[1] > 0}
    assert held, "SOS lists the deadlocked monitors' sync blocks"
    for obj, (owner, monitor_held, recursion) in held.items():
        ours = locks[obj]
        assert not ours.thin_lock and ours.owner is not None and ours.owner.os_thread_id == owner
        assert ours.recursion == recursion
        assert monitor_held == 1 + 2 * len(ours.waiters)  # SOS's MonitorHeld: 1 for the owner, 2 per waiter
    thin = {lk.type for obj, lk in locks.items() if lk.thin_lock}
    assert thin >= {"HangShape.ThinHeld", "HangShape.OrphanLocked"}
    assert not any(obj in sos.sync_blocks for obj, lk in locks.items() if lk.thin_lock)  # SOS shows none of them
