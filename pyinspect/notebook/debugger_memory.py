"""The Debugger's memory questions (mixed into pyinspect.Debugger): the heap read at the
address the adapter reports, through pyinspect.session.memory_reads as the MCP tools do, so a
struct, a null or an ImmutableArray answers here exactly as it does there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyinspect.models.heap import HeapObject
from pyinspect.models.memory import CollectionAnalysis, ObjectInspection, ObjectSummary
from pyinspect.session import memory_reads

if TYPE_CHECKING:
    from pyinspect.session.debug_session import Session

__all__ = ["MemoryMethods"]


class MemoryMethods:
    session: Session
    def collection(self, expression: str, max_preview_items: int = 5, timeout_ms: int = 5000,
                   frame_index: int = 0, thread_id: int | None = None) -> CollectionAnalysis:
        """A whole collection read from the heap in one call (collection_analyze): count,
        null count, numeric stats, type distribution, first/last elements or pairs.
        Raises NotCollectionError, VariableUnavailableError (null), NotPausedError.
        Example: ``dbg.collection("orders", max_preview_items=10).numeric_stats``"""
        return memory_reads.analyze_collection(self.session, expression, max_preview_items, thread_id,
                                               frame_index, timeout_ms)
    def summary(self, expression: str, max_preview_items: int = 5, frame_index: int = 0,
                thread_id: int | None = None, timeout_ms: int = 5000) -> ObjectSummary:
        """One object at a glance (object_summarize): every field's value, null fields and
        interesting ones (empty_string, nan, default_datetime...); a struct from its fields.
        Raises VariableUnavailableError, EvaluationError, NotPausedError.
        Example: ``dbg.summary("this._customer").null_fields``"""
        return memory_reads.summarize_object(self.session, expression, max_preview_items, thread_id,
                                             frame_index, timeout_ms)
    def object(self, expression: str, depth: int = 1, frame_index: int = 0,
               thread_id: int | None = None) -> HeapObject | ObjectInspection:
        """An object's memory layout (object_inspect): a HeapObject with address, size and
        every field with its offset, references expanded to depth (1-10); a null or struct
        value answers the ObjectInspection the tool gives (``is_value_type``).
        Raises DepthExceededError, InvalidParameterError, VariableUnavailableError.
        Example: ``dbg.object("this._customer", depth=2).field("Id").offset``"""
        return memory_reads.inspect_object(self.session, expression, depth, thread_id, frame_index)
