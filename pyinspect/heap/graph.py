"""HeapGraph: one heap snapshot as a graph, held in the helper (.NET) and queried by call.

The objects, references, dominators and retained sizes stay in .NET arrays; each query
is one crossing answering JSON rows, parsed into frozen models.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from pyinspect.errors import InvalidParameterError
from pyinspect.heap.addresses import parse_address
from pyinspect.heap.helper_calls import Ref
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.completeness import Completeness
from pyinspect.models.heapgraph import (
    DuplicateString,
    FinalizerStat,
    GraphSummary,
    GraphTypeStat,
    HeapLayout,
    Instance,
    RetainedObject,
    RetentionPaths,
    WastedCapacity,
)

if TYPE_CHECKING:
    from pyinspect.heap.reader import HeapReader

__all__ = ["HeapGraph", "parse_address"]

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
_WHICH = {"all": 0, "live": 1, "dead": 2}


class HeapGraph:
    """A built snapshot: ask it for stats, retained sizes, paths, instances, strings, layout."""

    def __init__(self, graph: Ref, reader: HeapReader, description: str) -> None:
        self._graph = graph
        self._reader = reader
        self.description = description
        self._completeness: Completeness | None = None
        weakref.finalize(self, reader.release, graph)  # the helper's arrays go with this object

    @property
    def generation(self) -> int:
        """The dump reader's generation this graph was built in (heap.dump_child)."""
        return self._graph.generation

    def _call(self, member: str, *args: Any, **context: Any) -> str:
        return str(self._reader.call(self._graph, member, *args, **context))

    def _rows(self, model: type[M], member: str, *args: Any, **context: Any) -> list[M]:
        return [model.model_validate(row) for row in json.loads(self._call(member, *args, **context))]

    def array_bytes(self) -> int:
        """Bytes the snapshot's arrays hold in the helper (for memory per object)."""
        return int(self._reader.get(self._graph, "ArrayBytes"))

    def build_times(self) -> dict[str, float]:
        """Seconds per phase of this snapshot's build (walk, index, roots, references, dominators, retained)."""
        times = json.loads(self._call("TimesJson"))
        return {str(k): float(v) for k, v in times.items()}

    def completeness(self) -> Completeness:
        """Whether the snapshot holds the whole heap, and where not, why (segments the walk
        stopped in, threads whose stack roots are missing): every answer from it carries this."""
        if self._completeness is None:
            self._completeness = Completeness.model_validate_json(self._call("CompletenessJson"))
        return self._completeness

    def summary(self) -> GraphSummary:
        return GraphSummary.model_validate_json(self._call("SummaryJson"))

    def stats(self, which: str = "all", top: int | None = None) -> list[GraphTypeStat]:
        """Count and size per type over all, live or dead objects; largest total first."""
        if which not in _WHICH:
            raise InvalidParameterError(f"which must be all, live or dead, got {which!r}", which=which)
        return self._rows(GraphTypeStat, "TypeStatsJson", _WHICH[which], _top(top))

    def retained(self, addresses: Sequence[int | str] | None = None, top: int | None = 20) -> list[RetainedObject]:
        """The given objects with their retained sizes, or the top retainers when none are given."""
        wanted = ",".join(hex(parse_address(a)) for a in addresses or [])
        return self._rows(RetainedObject, "RetainedJson", wanted, _top(top), command="retained")

    def retained_by_type(self, top: int | None = None) -> list[GraphTypeStat]:
        """Per type retained size (instances dominated by another of their type counted once)."""
        return self._rows(GraphTypeStat, "RetainedByTypeJson", _top(top), command="retained")

    def paths(self, address: int | str, max_paths: int = 5) -> RetentionPaths:
        """Shortest retention paths from roots to the object, each step named."""
        where = parse_address(address)
        return RetentionPaths.model_validate_json(self._call("PathsJson", where, max_paths, address=hex(where),
                                                             command="roots"))

    def instances(self, type_name: str, start: int = 0, count: int = 100) -> list[Instance]:
        return self._rows(Instance, "InstancesJson", type_name, start, count, type_name=type_name,
                          command="instances")

    def duplicate_strings(self, top: int | None = 50, live_only: bool = False) -> list[DuplicateString]:
        """Values held by more than one string, most wasted first; live_only: reachable ones only."""
        return self._rows(DuplicateString, "DuplicateStringsJson", _top(top), live_only, command="strings")

    def wasted_capacity(self, top: int | None = 50) -> list[WastedCapacity]:
        """Live collections' unused storage (List, Dictionary, HashSet, Queue, Stack) by type and
        owner, most wasted first: one pass reading each one's count and storage length."""
        return self._rows(WastedCapacity, "WastedCapacityJson", _top(top), command="collections")

    def layout(self) -> HeapLayout:
        return HeapLayout.model_validate_json(self._call("LayoutJson", command="segments"))

    def finalizer_queue(self) -> list[FinalizerStat]:
        return self._rows(FinalizerStat, "FinalizerJson", command="finalizer")

    def save_graph(self, path: str | Path) -> Path:
        """Write the whole graph (objects, references, roots, dominators, retained sizes) to one
        file, for paths, retained sizes and diffs later without the target (heap.graph_file)."""
        out = Path(path)
        self._call("SaveGraph", self.description, str(out), path=str(out), command="snapshot")
        return out

    def snapshot(self) -> Snapshot:
        """Per type count, size and retained size, detached from the target (save it, diff it)."""
        return Snapshot(self.description, tuple(self.stats("live")), self.summary(), self.completeness())


def _top(top: int | None) -> int:
    if top is None:
        return 0
    if top < 1:
        raise InvalidParameterError(f"top must be at least 1, got {top}", top=top)
    return top
