"""The memory tools: object_inspect, object_summarize, collection_analyze.

Each resolves its expression in the chosen thread and frame through the adapter
(``Session.resolve_value``: the object's address is the DAP ``memoryReference``) and reads
everything else from the heap with the session's ClrMD reader, in one call. A struct
value has no address: object_inspect and object_summarize list it from the adapter's
children and say ``isValueType``; an ImmutableArray struct is analysed through its array.
Codes are the ErrorCode values (UPPER_SNAKE) in all three, as in every tool.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import re
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from pyinspect.errors import (
    DepthExceededError,
    ErrorCode,
    EvaluationError,
    InvalidParameterError,
    NotCollectionError,
    PyInspectError,
    SetupMissingError,
    VariableUnavailableError,
)
from pyinspect.inspection import MAX_VARIABLES, ResolvedValue
from pyinspect.models.memory import (
    CollectionAnalyzeAnswer,
    ObjectInspectAnswer,
    ObjectInspection,
    ObjectSummarizeAnswer,
    ObjectSummary,
)
from pyinspect.server.errors import error_answer, error_result, unexpected_error
from pyinspect.server.parameters import (
    Depth,
    FrameIndex,
    ObjectRef,
    Preview,
    Subject,
    ThreadId,
    TimeoutMs,
)
from pyinspect.server.tooling import ERROR_SHAPES, ErrorShape
from pyinspect.session import Session

__all__ = ["register"]

log = logging.getLogger(__name__)
_IMMUTABLE_ARRAY = "System.Collections.Immutable.ImmutableArray"
_LEADING_NAME = re.compile(r"\s*@?([A-Za-z_]\w*)")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{1,16}")


def inspect_answer(exc: PyInspectError) -> dict[str, Any]:
    """object_inspect: an expression that does not resolve is INVALID_REFERENCE."""
    if exc.code in (ErrorCode.VARIABLE_UNAVAILABLE, ErrorCode.EVAL_EXCEPTION):
        exc = PyInspectError(exc.message, code=ErrorCode.INVALID_REFERENCE)
    return error_answer(exc)


def _check(max_preview_items: int, timeout_ms: int) -> None:
    if not 1 <= max_preview_items <= 50:
        raise InvalidParameterError(f"max_preview_items must be 1-50, got {max_preview_items}")
    if timeout_ms < 1:
        raise InvalidParameterError(f"timeout_ms must be positive, got {timeout_ms}")


def _resolve(session: Session, expression: str, thread_id: int | None, frame_index: int) -> ResolvedValue:
    """The expression's value; a failure is VARIABLE_UNAVAILABLE when its first name is not
    in scope, else EVAL_EXCEPTION (the name exists, evaluating the rest failed)."""
    session.require_paused()
    try:
        value = session.resolve_value(expression, thread_id, frame_index)
    except VariableUnavailableError as exc:
        cause = exc.__cause__
        if not isinstance(cause, EvaluationError) or not _root_in_scope(session, expression, thread_id, frame_index):
            raise
        raise EvaluationError(f"Failed to evaluate expression '{expression}': {cause.message}",
                              exception_type=cause.exception_type, expression=expression) from cause
    adapter = session.active_adapter
    if value.address is None and not value.is_null and adapter not in (None, "pyinspect"):
        raise SetupMissingError(f"the memory tools need pyinspect's own adapter: {adapter} reports no memory "
                                "address for a value; start the session with adapter='pyinspect'", adapter=adapter)
    return value


def _root_in_scope(session: Session, expression: str, thread_id: int | None, frame_index: int) -> bool:
    """Is the expression's leading name a local, an argument, `this` or a field of `this`?"""
    found = _LEADING_NAME.match(expression)
    if found is None:
        return False
    try:
        names = {v.name for v in _children(session, "", thread_id, frame_index)}
        if found.group(1) in names:
            return True
        return "this" in names and found.group(1) in {v.name for v in _children(session, "this", thread_id,
                                                                               frame_index)}
    except PyInspectError:
        return False


def _children(session: Session, expression: str, thread_id: int | None, frame_index: int) -> list[Any]:
    """The children of expression ("" for the frame's own variables)."""
    return list(session.inspector.variables(thread_id, frame_index, "all", expression or None,
                                           count=MAX_VARIABLES).variables)


def inspect_object(session: Session, object_ref: str, depth: int, thread_id: int | None,
                   frame_index: int) -> ObjectInspectAnswer:
    if depth > 10:
        raise DepthExceededError(f"depth {depth} exceeds the limit of 10", depth=depth)
    if depth < 1:
        raise InvalidParameterError(f"depth must be 1-10, got {depth}")
    if _ADDRESS.fullmatch(object_ref.strip()):  # an address from the heap tools (a literal is never an object)
        session.require_paused()
        data = session.heap().object(object_ref.strip(), depth=depth).to_inspection()
        return ObjectInspectAnswer(inspection=ObjectInspection.model_validate(data))
    value = _resolve(session, object_ref, thread_id, frame_index)
    if value.is_null:
        return ObjectInspectAnswer(inspection=ObjectInspection(address=None, type_name=value.type_name, size=0,
                                                               is_null=True))
    if value.address is None:
        fields = tuple({"name": c.name, "typeName": c.type, "value": c.value, "hasChildren": c.has_children}
                       for c in _children(session, object_ref, thread_id, frame_index))
        return ObjectInspectAnswer(inspection=ObjectInspection(address=None, type_name=value.type_name, size=None,
                                                               fields=fields, is_value_type=True))
    data = session.heap().object(value.address, depth=depth).to_inspection()
    return ObjectInspectAnswer(inspection=ObjectInspection.model_validate(data))


def summarize_object(session: Session, expression: str, max_preview_items: int, thread_id: int | None,
                     frame_index: int, timeout_ms: int) -> ObjectSummarizeAnswer:
    _check(max_preview_items, timeout_ms)
    value = _resolve(session, expression, thread_id, frame_index)
    if value.is_null:
        return ObjectSummarizeAnswer(summary=ObjectSummary.null(value.type_name))
    if value.address is None:
        return ObjectSummarizeAnswer(summary=_struct_summary(
            value, _children(session, expression, thread_id, frame_index)))
    return ObjectSummarizeAnswer(summary=session.heap().summarize_object(value.address, max_preview_items))


def _struct_summary(value: ResolvedValue, children: list[Any]) -> ObjectSummary:
    """A struct from the adapter's children: values as the adapter shows them (no size)."""
    fields = [{"name": c.name, "type": c.type, "value": c.value} for c in children]
    reasons = {'""': "empty_string", "NaN": "nan", "Infinity": "infinity", "-Infinity": "infinity",
               "00000000-0000-0000-0000-000000000000": "default_guid"}
    interesting = [{**f, "reason": reasons[f["value"]]} for f in fields if f["value"] in reasons]
    return ObjectSummary.model_validate({
        "typeName": value.type_name, "size": 0, "totalFieldCount": len(fields), "fields": fields,
        "nullFields": [f["name"] for f in fields if f["value"] == "null"], "interestingFields": interesting})


def analyze_collection(session: Session, expression: str, max_preview_items: int, thread_id: int | None,
                       frame_index: int, timeout_ms: int) -> CollectionAnalyzeAnswer:
    _check(max_preview_items, timeout_ms)
    value = _resolve(session, expression, thread_id, frame_index)
    if value.is_null:
        raise VariableUnavailableError(f"'{expression}' is null: there is no collection to analyze")
    if value.address is None:
        return _immutable_array(session, value, max_preview_items, thread_id, frame_index, timeout_ms)
    try:
        analysis = session.heap().analyze_collection(value.address, max_preview_items, timeout_ms)
    except NotCollectionError as exc:
        raise NotCollectionError(
            f"Expression '{expression}' evaluates to type '{value.type_name}', which is not a recognized "
            "collection type. Use object_summarize instead.") from exc
    return CollectionAnalyzeAnswer(summary=analysis)


def _immutable_array(session: Session, value: ResolvedValue, max_preview_items: int, thread_id: int | None,
                     frame_index: int, timeout_ms: int) -> CollectionAnalyzeAnswer:
    """An ImmutableArray<T> struct is its `array` field: analyse that array, report the struct."""
    if not value.type_name.startswith(_IMMUTABLE_ARRAY):
        raise NotCollectionError(
            f"Expression '{value.expression}' evaluates to type '{value.type_name}', which is not a recognized "
            "collection type. Use object_summarize instead.")
    inner = session.resolve_value(f"{value.expression}.array", thread_id, frame_index)
    if inner.address is None:
        raise VariableUnavailableError(f"'{value.expression}' is a default ImmutableArray (no array)")
    analysis = session.heap().analyze_collection(inner.address, max_preview_items, timeout_ms)
    element = analysis.element_type
    return CollectionAnalyzeAnswer(summary=analysis.model_copy(update={
        "kind": "ImmutableArray", "collection_type": f"{_IMMUTABLE_ARRAY}`1[{element}]"}))


def _add(mcp: MCPServer, fn: Callable[..., Any], output: type[Any], error_shape: ErrorShape, title: str) -> None:
    """Register like tooling.add_tool, but keep the contracts' explicit nulls."""
    @functools.wraps(fn)
    def run_tool(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            data = fn(*args, **kwargs).wire()
        except PyInspectError as exc:
            return error_result(error_shape(exc))
        except Exception as exc:
            log.exception("tool %s failed", fn.__name__)
            return error_result(error_shape(unexpected_error(exc)))
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(data))], structured_content=data)

    signature = inspect.signature(fn, eval_str=True)
    run_tool.__signature__ = signature.replace(  # type: ignore[attr-defined]
        return_annotation=Annotated[CallToolResult, output])
    ERROR_SHAPES[fn.__name__] = error_shape
    mcp.add_tool(run_tool, name=fn.__name__, title=title, description=inspect.getdoc(fn),
                 annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                             idempotent_hint=True, open_world_hint=False))


def register(mcp: MCPServer, get_session: Callable[[], Session]) -> None:
    def object_inspect(object_ref: ObjectRef, depth: Depth = 1, thread_id: ThreadId = None,
                       frame_index: FrameIndex = 0) -> ObjectInspectAnswer:
        """A heap object's real address, type, size and every field (base classes included)
        with its offset from the object's address (MethodTable pointer at 0), size, value
        and hasChildren; embedded structs expanded in place; references expanded to depth
        (1-10) with hasCircularRef and truncated. Use it when variables_get is not enough:
        memory layout, or a deep object graph in one call. Needs a paused process."""
        return inspect_object(get_session(), object_ref, depth, thread_id, frame_index)

    def object_summarize(expression: Subject, max_preview_items: Preview = 5, thread_id: ThreadId = None,
                         frame_index: FrameIndex = 0, timeout_ms: TimeoutMs = 5000) -> ObjectSummarizeAnswer:
        """One object at a glance, read from the heap: every field's real value (decimal,
        DateTime, Guid included), collection fields with count and element type, null
        fields, and interestingFields (empty_string, nan, infinity, default_datetime,
        default_guid). Use before drilling in with object_inspect."""
        return summarize_object(get_session(), expression, max_preview_items, thread_id, frame_index, timeout_ms)

    def collection_analyze(expression: Subject, max_preview_items: Preview = 5, thread_id: ThreadId = None,
                           frame_index: FrameIndex = 0, timeout_ms: TimeoutMs = 5000) -> CollectionAnalyzeAnswer:
        """A whole collection read from the heap in one call (arrays, List, Dictionary,
        HashSet, Queue, Stack, LinkedList, Sorted*, Concurrent*, ArrayList, Hashtable,
        Immutable*): count, nullCount, numericStats over every element, typeDistribution,
        first/last elements or keyValuePairs; isSampled when timeout_ms cut the walk short.
        Use it instead of paging a collection through variables_get: one call at any size."""
        return analyze_collection(get_session(), expression, max_preview_items, thread_id, frame_index, timeout_ms)

    _add(mcp, object_inspect, ObjectInspectAnswer, inspect_answer, "Inspect Object")
    _add(mcp, object_summarize, ObjectSummarizeAnswer, error_answer, "Summarize Object")
    _add(mcp, collection_analyze, CollectionAnalyzeAnswer, error_answer, "Analyze Collection")
