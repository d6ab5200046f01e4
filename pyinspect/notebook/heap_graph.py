"""The notebook's heap graph methods (mixed into pyinspect.Heap): DataFrames of rows,
retention paths as a model, snapshots to diff. The graph is the Heap's workspace's: built
once and rebuilt after flush(), graph(refresh=True) or a damaged dump's reader starting again.
Every DataFrame says whether the heap was read whole in ``df.attrs["completeness"]``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyinspect.models.completeness import Completeness
from pyinspect.models.heapgraph import RetentionPaths
from pyinspect.notebook.progress import walk_progress
from pyinspect.session.heap_terms import HeapGraph, Snapshot, diff_snapshots
from pyinspect.session.heap_workspace import HeapWorkspace

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["GraphMethods", "diff"]


def _frame(rows: Sequence[Any], completeness: Completeness) -> pd.DataFrame:
    """Model rows as a DataFrame with snake_case columns (the models' field names), and
    whether they cover the whole heap in ``attrs["completeness"]``."""
    import pandas as pd

    frame = pd.DataFrame([r.model_dump() for r in rows])
    frame.attrs["completeness"] = completeness
    return frame


class GraphMethods:
    """Questions answered from the heap graph: what is live, what retains what, why alive."""

    heaps: HeapWorkspace

    def graph(self, refresh: bool = False, progress: bool = True, work_folder: str | None = None,
              memory_limit: int = 0) -> HeapGraph:
        """The heap graph snapshot, built on first use (with a progress bar unless
        progress=False) and again with refresh=True. A graph that would not fit in memory_limit
        bytes (0: the machine's available memory) keeps its arrays in files of work_folder (default:
        the temp folder); ``summary().work_folder`` says so. Raises HeapReadError.
        Example: ``heap.graph(work_folder="/big").summary()``"""
        if self.heaps.graph_ready() and not refresh:
            return self.heaps.graph()[0]
        with walk_progress(progress) as advance:  # a refresh flushes a live process's cached memory
            return self.heaps.graph(advance, fresh=refresh, work_folder=work_folder, memory_limit=memory_limit)[0]

    def completeness(self) -> Completeness:
        """Whether the heap graph holds the whole heap, and where not, why (the segments a
        damaged dump's walk stopped in, threads whose stacks were unread).
        Example: ``heap.completeness().describe()``"""
        return self.graph().completeness()

    def instances(self, type_name: str, start: int = 0, count: int = 100) -> pd.DataFrame:
        """Instances of a type (address, size, generation, live, retained_size), a page of
        count from start. Raises InvalidParameterError. Example: ``heap.instances("App.Order")``"""
        graph = self.graph()
        return _frame(graph.instances(type_name, start, count), graph.completeness())

    def retained(self, addresses: Sequence[int | str] | None = None, top: int = 20,
                 by_type: bool = False) -> pd.DataFrame:
        """Retained sizes of the given objects (addresses), else the top retainers, or
        (by_type=True) per type. Raises NotAnObjectError. Example: ``heap.retained(top=10)``"""
        graph = self.graph()
        if by_type:
            return _frame(graph.retained_by_type(top), graph.completeness())
        return _frame(graph.retained(addresses, top), graph.completeness())

    def path_to_root(self, address: int | str, max_paths: int = 5) -> RetentionPaths:
        """Why is this object alive: up to max_paths shortest paths from its roots, each step
        named (RetentionPaths; whether the heap was read whole: :meth:`completeness`). Raises NotAnObjectError. Example: ``heap.path_to_root("0x7f3a10")``"""
        return self.graph().paths(address, max_paths)

    def duplicate_strings(self, top: int = 50) -> pd.DataFrame:
        """Strings held more than once (value, count, wasted bytes), most wasteful first.
        Example: ``heap.duplicate_strings(10)``"""
        graph = self.graph()
        return _frame(graph.duplicate_strings(top), graph.completeness())

    def generations(self) -> pd.DataFrame:
        """Per generation (and LOH/POH): size, free bytes, fragmentation, pinned objects.
        Example: ``heap.generations()``"""
        graph = self.graph()
        return _frame(graph.layout().generations, graph.completeness())

    def finalizer_queue(self) -> pd.DataFrame:
        """Objects waiting for their finalizer to run, per type. Example: ``heap.finalizer_queue()``"""
        graph = self.graph()
        return _frame(graph.finalizer_queue(), graph.completeness())

    def snapshot(self, refresh: bool = True) -> Snapshot:
        """The live heap per type now (a fresh graph unless refresh=False); save() or diff() it.
        Example: ``before = heap.snapshot(); ...; pyinspect.diff(before, heap.snapshot())``"""
        return self.graph(refresh=refresh).snapshot()


def diff(a: Snapshot, b: Snapshot) -> pd.DataFrame:
    """Per type change from a to b (count_delta, size_delta, retained_delta), growth first.
    Example: ``pyinspect.diff(Snapshot.load("before.snap"), heap.snapshot())``"""
    return _frame(diff_snapshots(a, b), Completeness.of([a.completeness, b.completeness]))
