"""The heap reader: ClrMD through pythonnet (only heap/dotnet_bridge.py imports clr).

The reader loads on first use: the dump reader's child process (heap.dump_child) imports
only what it runs."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported before a dump reader's spawn (heap.reader_spawn)
if TYPE_CHECKING:
    from typing import Any

    from pyinspect.heap.reader import HeapReader, ProgressCallback, create_dump

__all__ = ["HeapReader", "ProgressCallback", "create_dump"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pyinspect.heap import reader

        return getattr(reader, name)
    raise AttributeError(f"module 'pyinspect.heap' has no attribute {name!r}")
