"""pydantic models that travel up from the engines: frozen, camelCase on the wire.

Each area keeps its own module beside this one (heap.py: heap records). The records of the
C# helpers are read by models on wire.WireModel, each named once in helper_records; the debug
tools' answers (inspection, session, process) keep their contract's snake_case."""

from __future__ import annotations

from pyinspect.models.heap import HeapField, HeapObject, TypeStat

__all__ = ["HeapField", "HeapObject", "TypeStat"]
