"""pydantic models that travel up from the engines: frozen, camelCase on the wire.

Each area keeps its own module beside this one (heap.py: heap records)."""

from __future__ import annotations

from pyinspect.models.heap import HeapField, HeapObject, TypeStat

__all__ = ["HeapField", "HeapObject", "TypeStat"]
