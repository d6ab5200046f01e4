"""The heap reader: ClrMD through pythonnet (only heap/dotnet_bridge.py imports clr)."""

from __future__ import annotations

from pyinspect.heap.reader import HeapReader, ProgressCallback, create_dump

__all__ = ["HeapReader", "ProgressCallback", "create_dump"]
