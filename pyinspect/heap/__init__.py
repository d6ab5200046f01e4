"""The heap reader: ClrMD through pythonnet (only heap/dotnet_bridge.py imports clr).

The reader loads on first use: the dump reader's child process (heap.dump_child) imports
only what it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyinspect.heap.reader import HeapReader, ProgressCallback, create_dump

__all__ = ["HeapReader", "ProgressCallback", "create_dump"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pyinspect.heap import reader

        return getattr(reader, name)
    raise AttributeError(f"module 'pyinspect.heap' has no attribute {name!r}")
