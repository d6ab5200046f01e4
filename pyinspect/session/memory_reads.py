"""Memory questions about a value in a paused frame: object_inspect, object_summarize and
collection_analyze, answered the same for the MCP tools and the notebook.

Each resolves its expression in the chosen thread and frame through the adapter (the
object's address is the DAP ``memoryReference``) and reads everything else from the heap
with the session's ClrMD reader, in one call. A struct value has no address: it is listed
from the adapter's children and says ``isValueType``; an ImmutableArray struct is analysed
through its array. The heap reader checks its own limits (pyinspect.heap.limits); only
what never reaches it is checked here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pyinspect.errors import (
    EvaluationError,
    NotCollectionError,
    PyInspectError,
    SetupMissingError,
    VariableUnavailableError,
)
from pyinspect.heap.limits import check_depth, check_preview, check_timeout
from pyinspect.models.heap import HeapObject
from pyinspect.models.inspection import VariableInfo
from pyinspect.models.memory import CollectionAnalysis, ObjectInspection, ObjectSummary
from pyinspect.session.stop_reader import MAX_VARIABLES, ResolvedValue

if TYPE_CHECKING:
    from pyinspect.session.debug_session import Session

__all__ = ["analyze_collection", "inspect_object", "struct_reason", "summarize_object"]

IMMUTABLE_ARRAY = "System.Collections.Immutable.ImmutableArray"
_LEADING_NAME = re.compile(r"\s*@?([A-Za-z_]\w*)")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{1,16}")
# The reasons of dotnet/PyInspect.Heap/Collections/ObjectSummarizer.cs, for a struct's fields
# as the adapter shows them (Values/ValueText.cs: DateTime and Guid in braces).
_REASONS = {'""': "empty_string", "NaN": "nan", "Infinity": "infinity", "-Infinity": "infinity",
            "∞": "infinity", "-∞": "infinity", "0001-01-01T00:00:00.0000000": "default_datetime",
            "00000000-0000-0000-0000-000000000000": "default_guid"}


def inspect_object(session: Session, expression: str, depth: int, thread_id: int | None,
                   frame_index: int) -> HeapObject | ObjectInspection:
    """A heap object with its address, size and fields with offsets (HeapObject; its
    to_inspection() is object_inspect's shape), or, for null and struct values, the
    ObjectInspection object_inspect answers. A 0x address (from the heap tools; a C# literal
    is never an object) is read straight from the heap."""
    if _ADDRESS.fullmatch(expression.strip()):
        session.require_paused()
        return session.heap().object(expression.strip(), depth=depth)
    value = resolve(session, expression, thread_id, frame_index)
    if value.is_null:
        return ObjectInspection(address=None, type_name=value.type_name, size=0, is_null=True)
    if value.address is None:
        check_depth(depth)
        fields = tuple({"name": c.name, "typeName": c.type, "value": c.value, "hasChildren": c.has_children}
                       for c in children(session, expression, thread_id, frame_index))
        return ObjectInspection(address=None, type_name=value.type_name, size=None, fields=fields,
                                is_value_type=True)
    return session.heap().object(value.address, depth=depth)


def summarize_object(session: Session, expression: str, max_preview_items: int, thread_id: int | None,
                     frame_index: int, timeout_ms: int) -> ObjectSummary:
    """Every field's real value, the null fields and the values that usually mean a bug."""
    check_timeout(timeout_ms)
    value = resolve(session, expression, thread_id, frame_index)
    if value.is_null:
        return ObjectSummary.null(value.type_name)
    if value.address is None:
        check_preview(max_preview_items)
        return struct_summary(value.type_name, children(session, expression, thread_id, frame_index))
    return session.heap().summarize_object(value.address, max_preview_items)


def analyze_collection(session: Session, expression: str, max_preview_items: int, thread_id: int | None,
                       frame_index: int, timeout_ms: int) -> CollectionAnalysis:
    """A whole collection read from the heap in one call."""
    value = resolve(session, expression, thread_id, frame_index)
    if value.is_null:
        raise VariableUnavailableError(f"'{expression}' is null: there is no collection to analyze")
    if value.address is None:
        return _immutable_array(session, value, max_preview_items, thread_id, frame_index, timeout_ms)
    try:
        return session.heap().analyze_collection(value.address, max_preview_items, timeout_ms)
    except NotCollectionError as exc:
        raise _not_a_collection(value) from exc


def resolve(session: Session, expression: str, thread_id: int | None, frame_index: int) -> ResolvedValue:
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


def children(session: Session, expression: str, thread_id: int | None, frame_index: int) -> list[VariableInfo]:
    """The children of expression ("" for the frame's own variables)."""
    return list(session.stop_reader.variables(thread_id, frame_index, "all", expression or None,
                                              count=MAX_VARIABLES).variables)


def _root_in_scope(session: Session, expression: str, thread_id: int | None, frame_index: int) -> bool:
    """Is the expression's leading name a local, an argument, `this` or a field of `this`?"""
    found = _LEADING_NAME.match(expression)
    if found is None:
        return False
    try:
        names = {v.name for v in children(session, "", thread_id, frame_index)}
        if found.group(1) in names:
            return True
        return "this" in names and found.group(1) in {v.name for v in children(session, "this", thread_id,
                                                                               frame_index)}
    except PyInspectError:
        return False


def struct_reason(value_text: str) -> str | None:
    """Why a struct field's value (as the adapter shows it) looks wrong, as the heap
    summarizer would say it; None when it does not."""
    return _REASONS.get(value_text.removeprefix("{").removesuffix("}"))


def struct_summary(type_name: str, fields: list[VariableInfo]) -> ObjectSummary:
    """A struct from the adapter's children: values as the adapter shows them (no size)."""
    rows: list[dict[str, Any]] = [{"name": f.name, "type": f.type, "value": f.value} for f in fields]
    interesting = [{**row, "reason": reason} for row in rows if (reason := struct_reason(row["value"]))]
    return ObjectSummary.model_validate({
        "typeName": type_name, "size": 0, "totalFieldCount": len(rows), "fields": rows,
        "nullFields": [row["name"] for row in rows if row["value"] == "null"], "interestingFields": interesting})


def _immutable_array(session: Session, value: ResolvedValue, max_preview_items: int, thread_id: int | None,
                     frame_index: int, timeout_ms: int) -> CollectionAnalysis:
    """An ImmutableArray<T> struct is its `array` field: analyse that array, report the struct."""
    if not value.type_name.startswith(IMMUTABLE_ARRAY):
        raise _not_a_collection(value)
    inner = session.resolve_value(f"{value.expression}.array", thread_id, frame_index)
    if inner.address is None:
        raise VariableUnavailableError(f"'{value.expression}' is a default ImmutableArray (no array)")
    analysis = session.heap().analyze_collection(inner.address, max_preview_items, timeout_ms)
    return analysis.model_copy(update={"kind": "ImmutableArray",
                                       "collection_type": f"{IMMUTABLE_ARRAY}`1[{analysis.element_type}]"})


def _not_a_collection(value: ResolvedValue) -> NotCollectionError:
    return NotCollectionError(f"Expression '{value.expression}' evaluates to type '{value.type_name}', which is "
                              "not a recognized collection type. Use object_summarize instead.")
