"""The heap reader: ClrMD through pythonnet (only heap/_runtime.py imports clr)."""

from __future__ import annotations

from pyinspect.heap.reader import HeapReader, ProgressCallback, create_dump

__all__ = ["HeapReader", "ProgressCallback", "create_dump"]
