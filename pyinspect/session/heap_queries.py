"""The heap tools' questions answered from one graph, bounded: each list holds at most
the rows asked for and says ``truncated`` (and the total) when there were more.

The bounds live here once; a face checks its counts with :func:`check_count` before any
heap walk starts, so a bad parameter never costs a walk (and is checked once).
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
    HeapSource,
    HeapStatsAnswer,
    HeapStringsAnswer,
)
from pyinspect.models.heapgraph import RetentionPaths
from pyinspect.session.heap_workspace import Taken

__all__ = [
    "MAX_ADDRESSES", "MAX_ROWS", "MAX_SEGMENTS", "MAX_STRING_CHARS", "check_addresses", "check_count", "diff_answer", "finalizer_answer",
    "instances_answer", "retained_answer", "retention_answer", "segments_answer", "stats_answer",
    "strings_answer",
]

MAX_ROWS = 1000
MAX_ADDRESSES = 100
MAX_SEGMENTS = 200
MAX_PATHS = 10
MAX_STRING_CHARS = 256


def check_count(name: str, value: int, limit: int = MAX_ROWS) -> int:
    if not 1 <= value <= limit:
        raise InvalidParameterError(f"{name} must be 1-{limit}, got {value}", parameter=name)
    return value


def check_addresses(addresses: Sequence[str] | None, by_type: bool) -> list[int]:
    """heap_retained's objects: at most MAX_ADDRESSES, each an address, never with by_type."""
    if not addresses:
        return []
    if by_type:
        raise InvalidParameterError("give addresses or by_type, not both")
    if len(addresses) > MAX_ADDRESSES:
        raise InvalidParameterError(f"at most {MAX_ADDRESSES} addresses, got {len(addresses)}")
    return [parse_address(a) for a in addresses]


def stats_answer(graph: HeapGraph, source: HeapSource, which: str, top: int) -> HeapStatsAnswer:
    rows = graph.stats(which)
    return HeapStatsAnswer(source=source, completeness=graph.completeness(), filter=which, types=tuple(rows[:top]),  # type: ignore[arg-type]
                           total_types=len(rows), truncated=len(rows) > top, summary=graph.summary())


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


def retained_answer(graph: HeapGraph, source: HeapSource, addresses: Sequence[int], top: int,
                    by_type: bool) -> HeapRetainedAnswer:
    """The given objects' retained sizes, else the top retainers (objects or, by_type, types)."""
    if addresses:
        return HeapRetainedAnswer(source=source, completeness=graph.completeness(),
                                  objects=tuple(graph.retained(addresses)), truncated=False)
    if by_type:
        types = graph.retained_by_type(top + 1)
        return HeapRetainedAnswer(source=source, completeness=graph.completeness(), types=tuple(types[:top]),
                                  truncated=len(types) > top)
    objects = graph.retained(None, top + 1)
    return HeapRetainedAnswer(source=source, completeness=graph.completeness(), objects=tuple(objects[:top]),
                              truncated=len(objects) > top)


def strings_answer(graph: HeapGraph, source: HeapSource, top: int) -> HeapStringsAnswer:
    """Duplicated string values, most wasted bytes first; wasted_bytes counts them all."""
    rows = graph.duplicate_strings(None)
    shown = tuple(DuplicateStringRow(value=r.value[:MAX_STRING_CHARS], value_truncated=len(r.value) > MAX_STRING_CHARS,
                                     count=r.count, size=r.size, wasted_bytes=r.wasted_bytes) for r in rows[:top])
    return HeapStringsAnswer(source=source, completeness=graph.completeness(), strings=shown, wasted_bytes=sum(r.wasted_bytes for r in rows),
                             truncated=len(rows) > top)


def segments_answer(graph: HeapGraph, source: HeapSource) -> HeapSegmentsAnswer:
    layout = graph.layout()
    return HeapSegmentsAnswer(source=source, completeness=graph.completeness(), generations=layout.generations,
                              segments=layout.segments[:MAX_SEGMENTS], total_segments=len(layout.segments),
                              truncated=len(layout.segments) > MAX_SEGMENTS)


def finalizer_answer(graph: HeapGraph, source: HeapSource, top: int) -> HeapFinalizerAnswer:
    rows = graph.finalizer_queue()
    return HeapFinalizerAnswer(source=source, completeness=graph.completeness(), types=tuple(rows[:top]), ready=sum(r.ready for r in rows),
                               truncated=len(rows) > top)


def diff_answer(before: Taken, after: Taken, top: int) -> HeapDiffAnswer:
    """What grew from before to after, per type; largest growth in bytes first."""
    rows = diff(before[1], after[1])
    return HeapDiffAnswer(before=before[0], after=after[0], before_source=before[2], after_source=after[2],
                          completeness=Completeness.of([before[1].completeness, after[1].completeness]),
                          changes=tuple(rows[:top]), total_changes=len(rows), truncated=len(rows) > top)
