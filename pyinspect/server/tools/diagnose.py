"""The `diagnose` tool (issue 42): what is wrong with the heap the heap tools read (a dump, an
attached process, the paused debuggee), in one call. Thin: validate the thresholds, one call
into pyinspect.session.diagnosis in a worker thread (the graph is the workspace's, built with
MCP progress and reused by the heap tools after), the answer model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from pyinspect.errors import InvalidParameterError
from pyinspect.models.diagnosis import DiagnoseAnswer
from pyinspect.server.tooling import add_tool
from pyinspect.session.diagnosis import check_record_seconds, parse_thresholds, record_window
from pyinspect.session.diagnosis import diagnose as run_rules
from pyinspect.session.heap_terms import HeapGraph, ProgressCallback
from pyinspect.session.heap_workspace import HeapWorkspace

__all__ = ["register"]

ThresholdValues = Annotated[dict[str, float] | None, Field(
    description="Thresholds to change, by name (others keep their defaults): convoy_waiters (3), "
                "starvation_blocked_share (0.75), starvation_queued (1), retained_bytes (16 MiB), "
                "retained_share (0.25), growth_bytes (4 MiB), gc_induced_per_second (1), gc_gen2_per_second (1), "
                "gc_pause_share (0.15), duplicate_bytes (8 MiB), duplicate_share (0.10)")]


Baseline = Annotated[str | None, Field(
    description="A heap_snapshot id taken earlier of the same heap: memory-growth names what grew since")]


RecordSeconds = Annotated[float | None, Field(
    description="Record the process's GCs and allocations for this many seconds first (0.5-60; a process opened "
                "with heap_attach): gc-pressure")]


def register(mcp: MCPServer, heaps: Callable[[], HeapWorkspace],
             in_thread: Callable[[Context[Any, Any], Callable[[ProgressCallback], Any]], Any]) -> None:
    async def diagnose(ctx: Context[Any, Any], thresholds: ThresholdValues = None,
                       baseline: Baseline = None, record_seconds: RecordSeconds = None) -> DiagnoseAnswer:
        """Start here for a hang, a crash or high memory: what is wrong, in one answer. Findings
        ranked by severity (critical, error, warning, info), each with a kind (crash, deadlock,
        thread-pool-starvation, finalizer-blocked, async-never-completes, lock-convoy, fragmentation,
        duplicate-strings, wasted-capacity, retained-memory), a one-line statement, its evidence (threads with
        frames, objects with addresses, types with counts, methods with file:line, the retention
        path from its root), a confidence and nextCalls (the tools that show more). Reads the heap
        the heap tools read: dump_open, heap_attach, else the paused debuggee. With baseline (a
        heap_snapshot id taken earlier), memory-growth too: the types that grew and their root; with
        record_seconds (a running process), gc-pressure from a recording of that window."""
        limits = parse_thresholds(thresholds)
        check_record_seconds(record_seconds)

        def work(progress: ProgressCallback) -> DiagnoseAnswer:
            workspace = heaps()
            before = workspace.pair(baseline, None)[0][1] if baseline is not None else None
            reader, source = workspace.reader()
            recording = None
            if record_seconds is not None:
                if source.kind != "process" or source.pid is None:
                    raise InvalidParameterError("record_seconds needs a running process: heap_attach {pid} "
                                                f"(this heap is {source.description})")
                recording = record_window(source.pid, record_seconds)

            def build() -> HeapGraph:  # a running process is read afresh to compare with its baseline
                return workspace.graph(progress, fresh=before is not None and source.kind == "process")[0]

            found = run_rules(reader, build, from_dump=source.kind == "dump", thresholds=limits, baseline=before,
                              recording=recording)
            return DiagnoseAnswer(source=source, findings=found.findings, checked=found.checked,
                                  unchecked=found.unchecked, thresholds=found.thresholds, seconds=found.seconds)

        answer: DiagnoseAnswer = await in_thread(ctx, work)
        return answer

    add_tool(mcp, diagnose, DiagnoseAnswer, read_only=True, title="Diagnose: What Is Wrong")
