"""A killed runtime's debugger pipes and diagnostics socket are removed once its process is
gone, and only then: a running process (same pid, same start time) keeps its own."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pyinspect.targets.runtime_files import remove_runtime_files, remove_runtime_files_of_ended


def _start_key(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[19])


def _gone_pid() -> int:
    pid = 4_000_000
    while Path(f"/proc/{pid}").exists():
        pid += 1
    return pid


def _files(folder: Path, pid: int, key: int) -> list[Path]:
    names = [f"dotnet-diagnostic-{pid}-{key}-socket", f"clr-debug-pipe-{pid}-{key}-in", f"clr-debug-pipe-{pid}-{key}-out"]
    for name in names:
        (folder / name).touch()
    return [folder / name for name in names]


def test_a_gone_process_files_go_and_a_running_one_keeps_its_own(tmp_path: Path) -> None:
    me, gone = os.getpid(), _gone_pid()
    mine = _files(tmp_path, me, _start_key(me))
    reused = _files(tmp_path, me, _start_key(me) - 1)  # an earlier process that had this pid
    dead = _files(tmp_path, gone, 12345)
    other = tmp_path / f"dotnet-diagnostic-{gone}-notakey-socket"
    other.touch()
    assert remove_runtime_files(gone, tmp_path, wait=0) == 3
    assert remove_runtime_files(me, tmp_path, wait=0) == 3
    assert [p.exists() for p in mine + reused + dead] == [True] * 3 + [False] * 6
    assert other.exists()


def test_the_end_of_a_run_removes_only_files_made_during_it(tmp_path: Path) -> None:
    gone = _gone_pid()
    earlier = _files(tmp_path, gone, 1)
    long_ago = time.time() - 3600
    for path in earlier:
        os.utime(path, (long_ago, long_ago))
    during = _files(tmp_path, gone, 2)
    assert remove_runtime_files_of_ended(tmp_path, since=time.time() - 60) == 3
    assert [p.exists() for p in earlier + during] == [True] * 3 + [False] * 3
