"""The notebook's heap graph methods (mixed into pyinspect.Heap): DataFrames of rows,
retention paths as a model, snapshots to diff. The graph is the Heap's workspace's: built
once and rebuilt after flush(), graph(refresh=True) or a damaged dump's reader starting again.
The rows are the heap tools' bounded answers (pyinspect.session.heap_queries: the same row
limits, a count checked before any walk). Every DataFrame says whether the heap was read whole
in ``df.attrs["completeness"]`` and whether rows were left out in ``df.attrs["truncated"]``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyinspect.models.completeness import Completeness
from pyinspect.models.heap_source import HeapSource
from pyinspect.models.heapgraph import RetentionPaths
from pyinspect.notebook.progress import walk_progress
from pyinspect.session import heap_queries as queries
from pyinspect.session.heap_terms import HeapGraph, Snapshot, diff_snapshots, parse_address
from pyinspect.session.heap_workspace import HeapWorkspace
from pyinspect.session.row_limits import check_count, first_rows

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["GraphMethods", "diff"]


def _frame(rows: Sequence[Any], completeness: Completeness, truncated: bool = False) -> pd.DataFrame:
    """Model rows as a DataFrame with snake_case columns (the models' field names), whether
    they cover the whole heap in ``attrs["completeness"]`` and whether rows were left out
    in ``attrs["truncated"]``."""
    import pandas as pd

    frame = pd.DataFrame([r.model_dump() for r in rows])
    frame.attrs["completeness"] = completeness
    frame.attrs["truncated"] = truncated
    return frame


class GraphMethods:
    """Questions answered from the heap graph: what is live, what retains what, why alive."""

    heaps: HeapWorkspace

    def graph(self, refresh: bool = False, progress: bool = True, work_folder: str | None = None,
              memory_limit: int = 0) -> HeapGraph:
        """The heap graph snapshot, built on first use (with a progress bar unless
        progress=False) and again with refresh=True. A graph that would not fit in memory_limit
        bytes (0: the machine's available memory, or its container's or cgroup's if less) keeps its
        arrays in files of work_folder (default: the temp folder); ``summary().work_folder`` says so.
        Raises HeapReadError.
        Example: ``heap.graph(work_folder="/big").summary()``"""
        return self._graph_and_source(refresh, progress, work_folder, memory_limit)[0]

    def _graph_and_source(self, refresh: bool = False, progress: bool = True, work_folder: str | None = None,
                          memory_limit: int = 0) -> tuple[HeapGraph, HeapSource]:
        if self.heaps.graph_ready() and not refresh:
            return self.heaps.graph()
        with walk_progress(progress) as advance:  # a refresh flushes a live process's cached memory
            return self.heaps.graph(advance, fresh=refresh, work_folder=work_folder, memory_limit=memory_limit)

    def completeness(self) -> Completeness:
        """Whether the heap graph holds the whole heap, and where not, why (the segments a
        damaged dump's walk stopped in, threads whose stacks were unread).
        Example: ``heap.completeness().describe()``"""
        return self.graph().completeness()

    def instances(self, type_name: str, start: int = 0, count: int = 100) -> pd.DataFrame:
        """Instances of a type (address, size, generation, live, retained_size), a page of
        count from start. Raises InvalidParameterError, UnknownTypeError.
        Example: ``heap.instances("App.Order")``"""
        check_count("count", count, None)
        answer = queries.instances_answer(*self._graph_and_source(), type_name, start, count)
        return _frame(answer.instances, answer.completeness, answer.truncated)

    def retained(self, addresses: Sequence[int | str] | None = None, top: int | None = 20,
                 by_type: bool = False) -> pd.DataFrame:
        """Retained sizes of the given objects (addresses, at most 100), else the top (None:
        every) retainers, or (by_type=True) per type. Raises NotAnObjectError,
        InvalidParameterError. Example: ``heap.retained(top=10)``"""
        check_count("top", top, None)
        wanted = queries.check_addresses(addresses, by_type)
        answer = queries.retained_answer(*self._graph_and_source(), wanted, top, by_type)
        rows = answer.types if by_type else answer.objects
        return _frame(rows or (), answer.completeness, answer.truncated)

    def path_to_root(self, address: int | str, max_paths: int = 5) -> RetentionPaths:
        """Why is this object alive: up to max_paths shortest paths from its roots, each
        step named (RetentionPaths; whether the heap was read whole: :meth:`completeness`).
        Raises NotAnObjectError, InvalidParameterError. Example: ``heap.path_to_root("0x7f3a10")``"""
        check_count("max_paths", max_paths, None)
        where = parse_address(address)
        return queries.retention_answer(*self._graph_and_source(), where, max_paths).retention

    def duplicate_strings(self, top: int | None = 50) -> pd.DataFrame:
        """Strings held more than once (value, count, wasted bytes), most wasteful first; the
        top (None: every) rows, each value whole. Example: ``heap.duplicate_strings(10)``"""
        check_count("top", top, None)
        answer = queries.strings_answer(*self._graph_and_source(), top, max_chars=None)
        return _frame(answer.strings, answer.completeness, answer.truncated)

    def generations(self) -> pd.DataFrame:
        """Per generation (and LOH/POH): size, free bytes, fragmentation, pinned objects.
        Example: ``heap.generations()``"""
        answer = queries.segments_answer(*self._graph_and_source())
        return _frame(answer.generations, answer.completeness)

    def finalizer_queue(self) -> pd.DataFrame:
        """Objects waiting for their finalizer to run, per type. Example: ``heap.finalizer_queue()``"""
        answer = queries.finalizer_answer(*self._graph_and_source(), None)
        return _frame(answer.types, answer.completeness, answer.truncated)

    def snapshot(self, refresh: bool = True) -> Snapshot:
        """The live heap per type now (a fresh graph unless refresh=False); save() or diff() it.
        Example: ``before = heap.snapshot(); ...; pyinspect.diff(before, heap.snapshot())``"""
        return self.graph(refresh=refresh).snapshot()


def diff(a: Snapshot, b: Snapshot, top: int | None = None) -> pd.DataFrame:
    """Per type change from a to b (count_delta, size_delta, retained_delta), growth first;
    the top (None: every) rows.
    Example: ``pyinspect.diff(Snapshot.load("before.snap"), heap.snapshot())``"""
    check_count("top", top, None)
    rows, truncated = first_rows(diff_snapshots(a, b), top)
    return _frame(rows, Completeness.of([a.completeness, b.completeness]), truncated)
