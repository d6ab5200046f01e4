"""DebuggeeLoop: a process that counts forever into a file.

The counter file is how attach tests see whether the debuggee runs, is stopped, or keeps
running after a debugger lets go of it.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.targets import running_target, wait_for_file


@contextmanager
def counting_loop(folder: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """DebuggeeLoop started and already counting into folder/counter.txt; killed afterwards."""
    counter = folder / "counter.txt"
    with running_target("DebuggeeLoop", str(counter)) as proc:
        wait_for_file(counter, proc=proc)
        yield proc, counter


def read_counter(path: Path) -> int | None:
    """The counter; None when the file stays empty (the debuggee paused between the
    truncate and the write of File.WriteAllText)."""
    for _ in range(50):
        text = path.read_text().strip()
        if text:
            return int(text)
        time.sleep(0.01)
    return None


def counter_moves(path: Path, seconds: float = 0.3) -> bool:
    """Does the counter grow within `seconds`? An empty read counts as not moving."""
    before = read_counter(path)
    time.sleep(seconds)
    after = read_counter(path)
    return before is not None and after is not None and after > before
