"""What the rules read: every triage record of one target, and its heap graph on demand.

Each is read once per diagnosis (a rule never reads the target itself); the graph is built
only when a rule needs it, by the caller's builder (the MCP workspace reuses its graph).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from pyinspect.heap.graph import HeapGraph
from pyinspect.heap.reader import HeapReader
from pyinspect.heap.snapshot import Snapshot
from pyinspect.models.heapgraph import GraphSummary
from pyinspect.models.trace import TraceAnswer
from pyinspect.models.triage import AsyncChains, Exceptions, Locks, ThreadInfo, ThreadPoolInfo

__all__ = ["Observations"]

MAX_FRAMES = 256  # the crash rule compares the thread's outermost frame
MAX_CHAINS = 1000
MAX_EXCEPTIONS = 20


@dataclass
class Observations:
    """One target's records, read lazily and at most once each."""

    reader: HeapReader
    build_graph: Callable[[], HeapGraph]
    from_dump: bool
    baseline: Snapshot | None = None
    recording: TraceAnswer | None = None
    _graph: HeapGraph | None = field(default=None, init=False)

    @cached_property
    def threads(self) -> list[ThreadInfo]:
        return self.reader.threads(MAX_FRAMES)

    def thread(self, os_thread_id: int) -> ThreadInfo | None:
        return next((t for t in self.threads if t.os_thread_id == os_thread_id), None)

    @cached_property
    def locks(self) -> Locks:
        return self.reader.locks()

    @cached_property
    def chains(self) -> AsyncChains:
        return self.reader.async_chains(MAX_CHAINS)

    @cached_property
    def exceptions(self) -> Exceptions:
        return self.reader.exceptions(MAX_EXCEPTIONS)

    @cached_property
    def pool(self) -> ThreadPoolInfo:
        return self.reader.thread_pool()

    @property
    def graph(self) -> HeapGraph:
        if self._graph is None:
            self._graph = self.build_graph()
        return self._graph

    @cached_property
    def summary(self) -> GraphSummary:
        return self.graph.summary()
