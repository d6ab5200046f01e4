"""Where a HeapWorkspace's heap comes from: a heap opened on its own (a live process that
keeps running, or a core dump), or the debug session's paused debuggee, reached through a
DebuggeeLink (the debuggee's state, the adapter client, its pid): never the whole session.

The debuggee's reader is made lazily (CoreCLR loads only when a heap question comes) and
flushed whenever the process ran since its last use: the flush rule, written once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pyinspect.errors import InvalidParameterError, NoSessionError
from pyinspect.heap.reader import HeapReader
from pyinspect.models.heap_source import SourceKind

if TYPE_CHECKING:  # a heap opened on its own (a one-shot command's dump) loads no debug session's modules
    from pyinspect.dap.client import DapClient
    from pyinspect.session.state import DebuggeeState
    from pyinspect.session.stop_reader import ResolvedValue

__all__ = ["DebuggeeHeap", "DebuggeeLink", "Opened", "new_dump_file"]


@dataclass(frozen=True)
class DebuggeeLink:
    """What the heap workspace needs of a debug session: the debuggee's state (its stop
    epoch), the adapter client (names of stack locals), the debuggee's pid, the check that
    it is paused and an expression's value at the stop."""

    state: DebuggeeState
    client: Callable[[], DapClient]
    pid: Callable[[], int | None]
    require_paused: Callable[[], None]
    resolve: Callable[[str, int | None, int], ResolvedValue]


@dataclass
class Opened:
    """A heap opened for the heap questions alone (no debugger)."""

    reader: HeapReader
    kind: SourceKind
    pid: int | None = None
    path: str | None = None


class DebuggeeHeap:
    """The ClrMD reader on the debuggee's pid, owned here: made on first use, flushed when
    the debuggee's stop epoch moved since, closed when the debug session ends."""

    def __init__(self, link: DebuggeeLink) -> None:
        self._link = link
        self._lock = threading.Lock()
        self._reader: HeapReader | None = None
        self._epoch = -1

    def reader(self) -> HeapReader:
        epoch = self._link.state.epoch
        pid = self._link.pid()
        if pid is None:
            raise NoSessionError("the debuggee's process id is not known yet")
        with self._lock:
            if self._reader is None:
                self._reader = HeapReader.attach(pid, suspend=False)
            elif self._epoch != epoch:
                self._reader.flush()
            self._epoch = epoch
            return self._reader

    def close(self) -> None:
        with self._lock:
            reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()


def new_dump_file(path: str) -> Path:
    """A dump is written only as a new file at an absolute path in an existing folder."""
    out = Path(path).expanduser()
    if not path.strip() or "\x00" in path or not out.is_absolute():
        raise InvalidParameterError(f"path must be an absolute path for the new dump file, got {path[:200]!r}")
    if out.exists():
        raise InvalidParameterError(f"{out} exists already: dump_create writes a new file only", path=str(out))
    if not out.parent.is_dir():
        raise InvalidParameterError(f"no folder {out.parent} to write the dump in", path=str(out))
    return out
