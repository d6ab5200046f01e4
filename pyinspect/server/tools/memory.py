"""The memory tools: object_inspect, object_summarize, collection_analyze.

Thin: each is one call into pyinspect.session.memory_reads, which the notebook's Debugger uses
too, so both answer the same question the same way. Codes are the ErrorCode values
(UPPER_SNAKE) in all three, as in every tool; object_inspect says INVALID_REFERENCE
where the others say VARIABLE_UNAVAILABLE or EVAL_EXCEPTION, as its contract does.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

from pyinspect.errors import ErrorCode, PyInspectError
from pyinspect.models.heap import HeapObject
from pyinspect.models.memory import (
    CollectionAnalyzeAnswer,
    ObjectInspectAnswer,
    ObjectInspection,
    ObjectSummarizeAnswer,
)
from pyinspect.server.clients import ClientSessions
from pyinspect.server.errors import error_answer
from pyinspect.server.parameters import (
    Depth,
    Expression,
    FrameIndex,
    Preview,
    ThreadId,
    TimeoutMs,
)
from pyinspect.server.tooling import add_tool, wire_result
from pyinspect.session import memory_reads

__all__ = ["register"]



def inspect_answer(exc: PyInspectError) -> dict[str, Any]:
    """object_inspect: an expression that does not resolve is INVALID_REFERENCE."""
    if exc.code in (ErrorCode.VARIABLE_UNAVAILABLE, ErrorCode.EVAL_EXCEPTION):
        exc = PyInspectError(exc.message, code=ErrorCode.INVALID_REFERENCE)
    return error_answer(exc)


def register(mcp: MCPServer, clients: ClientSessions) -> None:
    get_session = clients.session
    def object_inspect(object_ref: Expression, depth: Depth = 1, thread_id: ThreadId = None,
                       frame_index: FrameIndex = 0) -> ObjectInspectAnswer:
        """A heap object's real address, type, size and every field (base classes included)
        with its offset from the object's address (MethodTable pointer at 0), size, value
        and hasChildren; embedded structs expanded in place; references expanded to depth
        (1-10) with hasCircularRef and truncated. Use it when variables_get is not enough:
        memory layout, or a deep object graph in one call. Needs a paused process."""
        found = memory_reads.inspect_object(get_session(), object_ref, depth, thread_id, frame_index)
        if isinstance(found, HeapObject):
            found = ObjectInspection.model_validate(found.to_inspection())
        return ObjectInspectAnswer(inspection=found)

    def object_summarize(expression: Expression, max_preview_items: Preview = 5, thread_id: ThreadId = None,
                         frame_index: FrameIndex = 0, timeout_ms: TimeoutMs = 5000) -> ObjectSummarizeAnswer:
        """One object at a glance, read from the heap: every field's real value (decimal,
        DateTime, Guid included), collection fields with count, element type and their first
        max_preview_items elements (collectionPreview; pairs as "key: value"), null
        fields, and interestingFields (empty_string, nan, infinity, default_datetime,
        default_guid). Use before drilling in with object_inspect."""
        summary = memory_reads.summarize_object(get_session(), expression, max_preview_items, thread_id,
                                                frame_index, timeout_ms)
        return ObjectSummarizeAnswer(summary=summary)

    def collection_analyze(expression: Expression, max_preview_items: Preview = 5, thread_id: ThreadId = None,
                           frame_index: FrameIndex = 0, timeout_ms: TimeoutMs = 5000) -> CollectionAnalyzeAnswer:
        """A whole collection read from the heap in one call (arrays, List, Dictionary,
        HashSet, Queue, Stack, LinkedList, Sorted*, Concurrent*, ArrayList, Hashtable,
        Immutable*): count, nullCount, numericStats over every element, typeDistribution,
        first/last elements or keyValuePairs; isSampled when timeout_ms cut the walk short.
        Use it instead of paging a collection through variables_get: one call at any size."""
        analysis = memory_reads.analyze_collection(get_session(), expression, max_preview_items, thread_id,
                                                   frame_index, timeout_ms)
        return CollectionAnalyzeAnswer(summary=analysis)

    add_tool(mcp, object_inspect, ObjectInspectAnswer, read_only=True, error_shape=inspect_answer,
             title="Inspect Object", result=wire_result)
    add_tool(mcp, object_summarize, ObjectSummarizeAnswer, read_only=True, title="Summarize Object",
             result=wire_result)
    add_tool(mcp, collection_analyze, CollectionAnalyzeAnswer, read_only=True, title="Analyze Collection",
             result=wire_result)
