"""The heap's questions answered from one graph, bounded: each list holds at most the rows
asked for and says ``truncated`` (and the total) when there were more. Every face asks
them here (the MCP tools their answers, the notebook and the command line the rows), so
a question is bounded one way (pyinspect.session.row_limits: the bounds and the cut).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pyinspect.errors import InvalidParameterError, UnknownTypeError
from pyinspect.heap.graph import HeapGraph, parse_address
from pyinspect.heap.snapshot import diff
from pyinspect.models.completeness import Completeness
from pyinspect.models.heap_answers import (
    DuplicateStringRow,
    HeapDiffAnswer,
    HeapFinalizerAnswer,
    HeapInstancesAnswer,
    HeapRetainedAnswer,
    HeapRetentionAnswer,
    HeapSegmentsAnswer,
    HeapStatsAnswer,
    HeapStringsAnswer,
)
from pyinspect.models.heap_source import HeapSource
from pyinspect.models.heapgraph import RetentionPaths
from pyinspect.session.heap_workspace import Taken
from pyinspect.session.row_limits import MAX_ADDRESSES, MAX_SEGMENTS, first_rows

__all__ = [
    "MAX_STRING_CHARS", "check_addresses",
    "diff_answer", "finalizer_answer",
    "instances_answer", "retained_answer", "retention_answer", "segments_answer", "stats_answer",
    "strings_answer",
]

MAX_STRING_CHARS = 256


def check_addresses(addresses: Sequence[int | str] | None, by_type: bool) -> list[int]:
    """heap_retained's objects: at most MAX_ADDRESSES, each an address, never with by_type."""
    if not addresses:
        return []
    if by_type:
        raise InvalidParameterError("give addresses or by_type, not both")
    if len(addresses) > MAX_ADDRESSES:
        raise InvalidParameterError(f"at most {MAX_ADDRESSES} addresses, got {len(addresses)}")
    return [parse_address(a) for a in addresses]


def stats_answer(graph: HeapGraph, source: HeapSource, which: str, top: int | None) -> HeapStatsAnswer:
    rows = graph.stats(which)
    shown, truncated = first_rows(rows, top)
    return HeapStatsAnswer(source=source, completeness=graph.completeness(), filter=which, types=shown,  # type: ignore[arg-type]
                           total_types=len(rows), truncated=truncated, summary=graph.summary())


def instances_answer(graph: HeapGraph, source: HeapSource, type_name: str, start: int,
                     count: int) -> HeapInstancesAnswer:
    """Instances in address order; an unknown type is UNKNOWN_TYPE (with the nearest names)."""
    if start < 0:
        raise InvalidParameterError(f"start must be 0 or more, got {start}", start=start)
    every = {row.type: row.count for row in graph.stats("all")}
    if type_name not in every:
        raise UnknownTypeError(f"no object of type {type_name!r} in this heap{_suggest(type_name, every)}; "
                               "give the full name (Namespace.Type, generics as List`1[...]; see heap_stats)",
                               type_name=type_name)
    total = every[type_name]
    rows = graph.instances(type_name, start, count) if start < total else []
    end = start + len(rows)
    return HeapInstancesAnswer(source=source, completeness=graph.completeness(), type_name=type_name, instances=tuple(rows), total=total, start=start,
                               next_start=end if end < total else None, truncated=end < total)


def _suggest(type_name: str, known: Sequence[str] | dict[str, int]) -> str:
    short = type_name.rsplit(".", 1)[-1].lower()
    close = sorted(name for name in known if name.lower().endswith(short) or short in name.lower())[:5]
    return f" (did you mean: {', '.join(close)}?)" if close and short else ""


def retention_answer(graph: HeapGraph, source: HeapSource, address: int, max_paths: int,
                     name_locals: Callable[[RetentionPaths], RetentionPaths] | None = None) -> HeapRetentionAnswer:
    """The paths to the object; ``name_locals`` names stack roots' locals where the source can."""
    paths = graph.paths(address, max_paths)
    return HeapRetentionAnswer(source=source, completeness=graph.completeness(), retention=name_locals(paths) if name_locals else paths)


def retained_answer(graph: HeapGraph, source: HeapSource, addresses: Sequence[int], top: int | None,
                    by_type: bool) -> HeapRetainedAnswer:
    """The given objects' retained sizes, else the top retainers (objects or, by_type, types);
    one row more than top is read to know whether rows were left out."""
    if addresses:
        return HeapRetainedAnswer(source=source, completeness=graph.completeness(),
                                  objects=tuple(graph.retained(addresses)), truncated=False)
    beyond = None if top is None else top + 1
    if by_type:
        types, truncated = first_rows(graph.retained_by_type(beyond), top)
        return HeapRetainedAnswer(source=source, completeness=graph.completeness(), types=types, truncated=truncated)
    objects, truncated = first_rows(graph.retained(None, beyond), top)
    return HeapRetainedAnswer(source=source, completeness=graph.completeness(), objects=objects, truncated=truncated)


def strings_answer(graph: HeapGraph, source: HeapSource, top: int | None,
                   max_chars: int | None = MAX_STRING_CHARS) -> HeapStringsAnswer:
    """Duplicated string values, most wasted bytes first; wasted_bytes counts them all. Each
    value is cut to max_chars (None: whole, for a person's face)."""
    rows = graph.duplicate_strings(None)
    shown, truncated = first_rows(rows, top)
    strings = tuple(DuplicateStringRow(value=r.value if max_chars is None else r.value[:max_chars],
                                       value_truncated=max_chars is not None and len(r.value) > max_chars,
                                       count=r.count, size=r.size, wasted_bytes=r.wasted_bytes) for r in shown)
    return HeapStringsAnswer(source=source, completeness=graph.completeness(), strings=strings,
                             wasted_bytes=sum(r.wasted_bytes for r in rows), truncated=truncated)


def segments_answer(graph: HeapGraph, source: HeapSource) -> HeapSegmentsAnswer:
    layout = graph.layout()
    segments, truncated = first_rows(layout.segments, MAX_SEGMENTS)
    return HeapSegmentsAnswer(source=source, completeness=graph.completeness(), generations=layout.generations,
                              segments=segments, total_segments=len(layout.segments), truncated=truncated)


def finalizer_answer(graph: HeapGraph, source: HeapSource, top: int | None) -> HeapFinalizerAnswer:
    rows = graph.finalizer_queue()
    shown, truncated = first_rows(rows, top)
    return HeapFinalizerAnswer(source=source, completeness=graph.completeness(), types=shown,
                               ready=sum(r.ready for r in rows), truncated=truncated)


def diff_answer(before: Taken, after: Taken, top: int | None) -> HeapDiffAnswer:
    """What grew from before to after, per type; largest growth in bytes first."""
    rows = diff(before[1], after[1])
    changes, truncated = first_rows(rows, top)
    return HeapDiffAnswer(before=before[0], after=after[0], before_source=before[2], after_source=after[2],
                          completeness=Completeness.of([before[1].completeness, after[1].completeness]),
                          changes=changes, total_changes=len(rows), truncated=truncated)
