"""The heap tools: open a heap (heap_attach, dump_open, dump_create, heap_close) and ask
it what is alive, what retains it and what grew (heap_stats ... heap_finalizer_queue).

Thin: each validates its parameters, makes one call into the client's Session's heap
workspace (pyinspect.session.heap_workspace) / pyinspect.session.heap_queries in a worker thread
(pyinspect.server.tools.heap_calls), and returns the model. Building a graph walks the whole
heap: it reports progress (bytes walked) and stops when the request or its task is cancelled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import BaseModel, Field

from pyinspect.errors import InvalidParameterError
from pyinspect.models.heap_answers import (
    DumpCreateAnswer,
    HeapCloseAnswer,
    HeapDiffAnswer,
    HeapFinalizerAnswer,
    HeapInstancesAnswer,
    HeapObjectAnswer,
    HeapOpenAnswer,
    HeapRetainedAnswer,
    HeapRetentionAnswer,
    HeapSegmentsAnswer,
    HeapSnapshotAnswer,
    HeapStatsAnswer,
    HeapStringsAnswer,
)
from pyinspect.models.memory import ObjectInspection
from pyinspect.server.clients import ClientSessions
from pyinspect.server.errors import answer_result
from pyinspect.server.parameters import Depth, Pid
from pyinspect.server.prompts import register_prompt
from pyinspect.server.tooling import add_tool, wire_result
from pyinspect.server.tools import diagnose, triage
from pyinspect.server.tools.heap_calls import in_thread
from pyinspect.session import heap_queries as queries
from pyinspect.session.heap_terms import ProgressCallback, parse_address
from pyinspect.session.heap_workspace import HeapWorkspace
from pyinspect.session.row_limits import MAX_PATHS, check_count

__all__ = ["register"]


OptionalPid = Annotated[int | None, Field(description="Process id (default: the heap_attach'ed process, else the "
                                                      "debuggee)")]
DumpPath = Annotated[str, Field(description="Path of a core dump (written by dump_create or createdump)")]
Offline = Annotated[bool | None, Field(description="true: look for the dump's DAC on this machine only, asking no "
                                                   "symbol server or NuGet feed (default: $PYINSPECT_OFFLINE)")]
NewDumpPath = Annotated[str, Field(description="Where to write the dump (a new file)")]
Filter = Annotated[Literal["live", "dead", "all"], Field(description="live: reachable from roots; dead: garbage "
                                                                      "not yet collected; all: both")]
Top = Annotated[int, Field(description="At most this many rows (1-1000)")]
TypeName = Annotated[str, Field(description="Full type name as heap_stats shows it, e.g. MyApp.Order")]
Start = Annotated[int, Field(description="Position of the first instance (0; or next_start of the previous page)")]
Count = Annotated[int, Field(description="At most this many instances (1-1000)")]
Address = Annotated[str | None, Field(description="Object address, 0x... (from heap_instances, heap_retained, "
                                                  "object_inspect)")]
Addresses = Annotated[list[str] | None, Field(description="Object addresses (0x...; at most 100); none: the top "
                                                         "retainers")]
ByType = Annotated[bool, Field(description="Retained size per type instead of per object")]
Expr = Annotated[str | None, Field(description="Instead of address: a C# expression in the paused debug session "
                                               "naming the object (e.g. this._cache)")]
MaxPaths = Annotated[int, Field(description="At most this many shortest paths (1-10)")]
ObjectAddress = Annotated[str, Field(description="Object address, 0x... (from heap_instances, heap_retained, "
                                                  "heap_retention)")]
BeforeHandle = Annotated[str | None, Field(description="The heap handle `before` was taken of, when it is another "
                                                       "heap than this call's (a diff across two dumps)")]
SnapshotId = Annotated[str | None, Field(description="Snapshot id from heap_snapshot (default: the last two taken)")]


def _add(mcp: MCPServer, fn: Callable[..., Awaitable[BaseModel]], output: type[BaseModel], title: str,
         read_only: bool = True, result: Callable[[Any], CallToolResult] = answer_result) -> None:
    """A heap tool: async (it takes the request's Context)."""
    add_tool(mcp, fn, output, read_only=read_only, title=title, result=result)


def register(mcp: MCPServer, clients: ClientSessions) -> None:
    """Add the heap tools and the leak-hunt prompt. Each client has its own workspace,
    closed with its MCP session."""
    def heaps() -> HeapWorkspace:
        return clients.session().heaps

    _register_sources(mcp, heaps, clients.close_heap)
    _register_questions(mcp, heaps)
    _register_history(mcp, heaps, lambda handle: clients.named(handle).heaps)
    triage.register(mcp, heaps)
    diagnose.register(mcp, heaps, in_thread)
    register_prompt(mcp)


def _register_sources(mcp: MCPServer, heaps: Callable[[], HeapWorkspace], close_heap: Callable[[], bool]) -> None:
    async def heap_attach(pid: Pid, ctx: Context[Any, Any]) -> HeapOpenAnswer:
        """Open a running .NET process's heap for the heap tools, with no debugger: the
        process is not stopped and keeps running (answers then carry mayHaveChanged and
        a warning; heap_snapshot re-reads it). Its answer's handle names this heap; heaps
        opened before stay open under theirs (calls without a handle read the one opened
        last), until heap_close or handle_close. Use it on a live service that must not pause."""
        source = await in_thread(ctx, lambda _: heaps().attach(pid))
        return HeapOpenAnswer(source=source, message=f"the heap tools now read process {pid} (it keeps running)")

    async def dump_open(path: DumpPath, ctx: Context[Any, Any], offline: Offline = None) -> HeapOpenAnswer:
        """Open a core dump's heap for the heap tools (nothing changes: answers are exact for
        the moment of the dump). Its answer's handle names this dump; heaps opened before stay
        open under theirs (calls without a handle read the one opened last); heap_close returns
        to the one before, else the paused debug session. The DAC of the dump's runtime build is looked for beside the
        dump, in installed runtimes, the NuGet packages folder, symbol servers and NuGet
        feeds; DUMP_ERROR names every place tried when none matches, or when the file is no
        dump of a .NET process."""
        source = await in_thread(ctx, lambda _: heaps().open_dump(path, offline))
        return HeapOpenAnswer(source=source, message=f"the heap tools now read the dump {source.path}")

    async def dump_create(path: NewDumpPath, ctx: Context[Any, Any], pid: OptionalPid = None) -> DumpCreateAnswer:
        """Write a full-heap core dump of a running .NET process with its own runtime's
        createdump (pid default: the heap_attach'ed process, else the debuggee), to read
        later or elsewhere with dump_open; the runtime's DAC and the app's PDBs are kept beside it in
        <path>.dac/ (keptBeside), so they travel together. Takes seconds; the process
        continues after."""
        answer: DumpCreateAnswer = await in_thread(ctx, lambda _: heaps().create_dump(pid, path))
        return answer

    async def heap_close(ctx: Context[Any, Any]) -> HeapCloseAnswer:
        """Close the heap opened by heap_attach or dump_open (the process is left as it was;
        its handle answers HANDLE_CLOSED after); the heap tools then read the heap opened
        before it, else the paused debug session's process, if any."""
        closed = await in_thread(ctx, lambda _: close_heap())
        if not closed:
            raise InvalidParameterError("no heap is open (heap_attach or dump_open opens one)")
        return HeapCloseAnswer(message="closed; the heap tools read the heap opened before it, else the paused "
                                       "debug session's process, if any")

    _add(mcp, heap_attach, HeapOpenAnswer, "Open a Process's Heap")
    _add(mcp, dump_open, HeapOpenAnswer, "Open a Core Dump")
    _add(mcp, dump_create, DumpCreateAnswer, "Write a Core Dump", read_only=False)
    _add(mcp, heap_close, HeapCloseAnswer, "Close the Heap")


def _register_questions(mcp: MCPServer, heaps: Callable[[], HeapWorkspace]) -> None:
    async def heap_stats(ctx: Context[Any, Any], filter: Filter = "live",
                         top: Top = 20) -> HeapStatsAnswer:
        """Count and bytes per type, largest first: live objects (reachable), dead ones
        (garbage not yet collected) or all; with retainedSize per type. Start here when
        memory is high. Reads the heap opened by heap_attach/dump_open, else the paused
        debuggee; the first call walks the whole heap (progress reported)."""
        check_count("top", top)
        return await in_thread(ctx, lambda p: queries.stats_answer(*heaps().graph(p), filter, top))

    async def heap_instances(type_name: TypeName, ctx: Context[Any, Any], start: Start = 0,
                             count: Count = 100) -> HeapInstancesAnswer:
        """The instances of one type in address order, paged: address, size, generation,
        live, retainedSize. Feed an address to heap_retention (why alive) or heap_retained."""
        check_count("count", count)
        return await in_thread(ctx, lambda p: queries.instances_answer(*heaps().graph(p), type_name, start, count))

    async def heap_retention(ctx: Context[Any, Any], address: Address = None, expression: Expr = None,
                             max_paths: MaxPaths = 3) -> HeapRetentionAnswer:
        """Why is this object alive: the shortest paths from its GC roots (a static Type.Field,
        a handle, a thread's stack frame, the finalizer queue) to it, each step named by
        the field or [index] that holds the next object; a stack root read in a paused debug
        session also names its local. reachable=false with complete=true means garbage.
        Give address, or expression in a paused debug session."""
        if (address is None) == (expression is None):
            raise InvalidParameterError("give address or expression (one of them)")
        check_count("max_paths", max_paths, MAX_PATHS)
        where = parse_address(address) if address is not None else None

        def work(progress: ProgressCallback) -> HeapRetentionAnswer:
            target = where if where is not None else heaps().resolve_address(str(expression))
            return queries.retention_answer(*heaps().graph(progress), target, max_paths, heaps().name_stack_locals)

        return await in_thread(ctx, work)

    async def heap_retained(ctx: Context[Any, Any], addresses: Addresses = None, top: Top = 20,
                            by_type: ByType = False) -> HeapRetainedAnswer:
        """Retained size: the bytes that would be freed if an object went away (exact, from
        the dominator tree). With addresses: those objects; without: the top retainers
        (objects, or types with by_type). The biggest retainer is usually the leak's holder."""
        check_count("top", top)
        wanted = queries.check_addresses(addresses, by_type)
        return await in_thread(ctx, lambda p: queries.retained_answer(*heaps().graph(p), wanted, top, by_type))

    async def heap_strings(ctx: Context[Any, Any], top: Top = 20) -> HeapStringsAnswer:
        """String values held by several objects, most wasted bytes first (count, size,
        wastedBytes; wastedBytes in total over all duplicates). Candidates for interning
        or caching."""
        check_count("top", top)
        return await in_thread(ctx, lambda p: queries.strings_answer(*heaps().graph(p), top))

    async def heap_segments(ctx: Context[Any, Any]) -> HeapSegmentsAnswer:
        """The GC heap's layout: per generation (gen0-2, LOH, POH) size, free bytes,
        fragmentation and pinned objects, and each segment's range. For high memory that
        is not in live objects: fragmentation, pinning, large objects."""
        return await in_thread(ctx, lambda p: queries.segments_answer(*heaps().graph(p)))

    async def heap_finalizer_queue(ctx: Context[Any, Any], top: Top = 50) -> HeapFinalizerAnswer:
        """Objects registered for finalization per type, and how many are ready (queued for
        the finalizer thread). Many ready objects: a slow or blocked finalizer, or
        undisposed IDisposables."""
        check_count("top", top)
        return await in_thread(ctx, lambda p: queries.finalizer_answer(*heaps().graph(p), top))

    async def heap_object(address: ObjectAddress, ctx: Context[Any, Any], depth: Depth = 1) -> HeapObjectAnswer:
        """One object by address, in object_inspect's shape (type, size, every field with its
        offset and value, references expanded to depth 1-10), from whichever heap is open:
        use it on addresses from heap_instances, heap_retained or heap_retention's steps."""
        where = parse_address(address)

        def work(_: ProgressCallback) -> HeapObjectAnswer:
            reader, source = heaps().reader()
            inspection = ObjectInspection.model_validate(reader.object(where, depth=depth).to_inspection())
            return HeapObjectAnswer(source=source, inspection=inspection)

        return await in_thread(ctx, work)

    _add(mcp, heap_object, HeapObjectAnswer, "Inspect an Object by Address",
         result=wire_result)  # keeps object_inspect's nulls
    _add(mcp, heap_stats, HeapStatsAnswer, "Heap Statistics by Type")
    _add(mcp, heap_instances, HeapInstancesAnswer, "Instances of a Type")
    _add(mcp, heap_retention, HeapRetentionAnswer, "Why Is This Object Alive")
    _add(mcp, heap_retained, HeapRetainedAnswer, "Retained Sizes")
    _add(mcp, heap_strings, HeapStringsAnswer, "Duplicate Strings")
    _add(mcp, heap_segments, HeapSegmentsAnswer, "Heap Segments and Generations")
    _add(mcp, heap_finalizer_queue, HeapFinalizerAnswer, "Finalizer Queue")


def _register_history(mcp: MCPServer, heaps: Callable[[], HeapWorkspace],
                      named: Callable[[str], HeapWorkspace]) -> None:
    async def heap_snapshot(ctx: Context[Any, Any]) -> HeapSnapshotAnswer:
        """Read the heap afresh and keep its live objects per type (count, bytes, retained)
        under an id (s1, s2...). The leak workflow: heap_snapshot, exercise the program
        (or wait), heap_snapshot, then heap_diff. Also refreshes what the other tools read."""
        def work(progress: ProgressCallback) -> HeapSnapshotAnswer:
            snapshot_id, taken, source = heaps().snapshot(progress)
            return HeapSnapshotAnswer(source=source, completeness=taken.completeness, snapshot_id=snapshot_id,
                                      snapshots=heaps().snapshot_ids(), summary=taken.summary)

        return await in_thread(ctx, work)

    async def heap_diff(ctx: Context[Any, Any], before: SnapshotId = None, after: SnapshotId = None,
                        top: Top = 20, before_handle: BeforeHandle = None) -> HeapDiffAnswer:
        """What grew between two snapshots, per type (countDelta, sizeDelta, retainedDelta),
        largest growth first; default: the last two heap_snapshot ids. The first rows are
        the leak suspects: list them with heap_instances, then heap_retention on one. Across
        two heaps (two dumps, a dump and a process): before_handle names the heap `before`
        was taken of, handle the heap of `after`."""
        check_count("top", top)

        def work(_: ProgressCallback) -> HeapDiffAnswer:
            if before_handle is None:
                return queries.diff_answer(*heaps().pair(before, after), top)
            earlier = named(before_handle).taken(before, "before")
            return queries.diff_answer(earlier, heaps().taken(after, "after"), top)

        return await in_thread(ctx, work)

    _add(mcp, heap_snapshot, HeapSnapshotAnswer, "Take a Heap Snapshot")
    _add(mcp, heap_diff, HeapDiffAnswer, "Compare Two Heap Snapshots")
