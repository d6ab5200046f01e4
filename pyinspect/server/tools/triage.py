"""The triage tools beside the heap tools (issue 31): why is it hung, why did it die.

heap_threads, heap_locks, heap_async, heap_exceptions and heap_threadpool read the heap the
heap tools read (heap_attach, dump_open, else the paused debuggee) through ClrMD: no graph
is built, each is one pass. Thin: validate, one reader call in a worker thread, the model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from pyinspect.models.heap_source import HeapSource
from pyinspect.models.triage import (
    HeapAsyncAnswer,
    HeapExceptionsAnswer,
    HeapLocksAnswer,
    HeapThreadPoolAnswer,
    HeapThreadsAnswer,
)
from pyinspect.server.tooling import add_tool
from pyinspect.session.heap_terms import HeapReader
from pyinspect.session.heap_workspace import HeapWorkspace
from pyinspect.session.row_limits import check_count

__all__ = ["register"]

T = TypeVar("T")
MaxThreads = Annotated[int, Field(description="At most this many threads (1-1000), blocked ones first")]
MaxFrames = Annotated[int, Field(description="At most this many frames per thread (1-1000)")]
WithObjects = Annotated[bool, Field(description="Per frame, the objects its stack slots hold (address, type)")]
Limit = Annotated[int, Field(description="At most this many records (1-1000)")]
Symbols = Annotated[str | None, Field(description="A folder of PDBs to use besides each module's own (absolute)")]


async def _read(heaps: Callable[[], HeapWorkspace], work: Callable[[HeapReader, HeapSource], T]) -> T:
    def run() -> T:
        reader, source = heaps().reader()
        return work(reader, source)

    return await anyio.to_thread.run_sync(run)


def register(mcp: MCPServer, heaps: Callable[[], HeapWorkspace]) -> None:
    """The triage tools over the calling client's heap workspace (heaps() answers it)."""
    async def heap_threads(ctx: Context[Any, Any], max_threads: MaxThreads = 100, max_frames: MaxFrames = 50,
                           objects: WithObjects = True, symbols: Symbols = None) -> HeapThreadsAnswer:
        """Every managed thread (clrstack -all): osThreadId, managedThreadId, name, state,
        blockedIn (monitor, lock, semaphore, sleep, wait...) and waitingFor (a lock's
        address), its current exception, and its frames leaf first (method, file, line from
        the PDB; objects its slots hold: go on with heap_object or heap_retention). Start here
        when a process hangs; then heap_locks for who holds what."""
        check_count("max_threads", max_threads)
        check_count("max_frames", max_frames)

        def work(reader: HeapReader, source: HeapSource) -> HeapThreadsAnswer:
            report = reader.threads_report(max_frames, symbols)
            rows = list(report.threads)
            if not objects:
                rows = [t.model_copy(update={"frames": tuple(f.model_copy(update={"objects": None})
                                                             for f in t.frames)}) for t in rows]
            rows.sort(key=lambda t: (t.blocked_in is None, t.managed_thread_id))
            return HeapThreadsAnswer(source=source, completeness=report.completeness, threads=tuple(rows[:max_threads]),
                                     total=len(rows), truncated=len(rows) > max_threads)

        return await _read(heaps, work)

    async def heap_locks(ctx: Context[Any, Any], symbols: Symbols = None) -> HeapLocksAnswer:
        """Locks held or waited for (syncblk): monitors (`lock`, thin or sync block),
        System.Threading.Lock and SemaphoreSlim, each with owner thread and waiters; and
        deadlocks, each a cycle named as "thread A holds X and waits for Y; thread B holds Y
        and waits for X"."""
        def work(reader: HeapReader, source: HeapSource) -> HeapLocksAnswer:
            found = reader.locks(symbols)
            return HeapLocksAnswer(source=source, completeness=found.completeness, locks=found.locks, deadlocks=found.deadlocks)

        return await _read(heaps, work)

    async def heap_async(ctx: Context[Any, Any], limit: Limit = 50, symbols: Symbols = None) -> HeapAsyncAnswer:
        """Async methods suspended at an await, as chains from the innermost (awaiting a task
        that is not an async method) to the root awaiter (dumpasync): method, state (await
        index) with the await's file and line, the task awaited. Stuck chains first (the
        innermost awaits an uncompleted task with no code, e.g. a TaskCompletionSource's)."""
        check_count("limit", limit)

        def work(reader: HeapReader, source: HeapSource) -> HeapAsyncAnswer:
            found = reader.async_chains(limit, symbols)
            return HeapAsyncAnswer(source=source, completeness=found.completeness, chains=found.chains,
                                   state_machines=found.state_machines, total=found.total, truncated=found.truncated)

        return await _read(heaps, work)

    async def heap_exceptions(ctx: Context[Any, Any], limit: Limit = 50, symbols: Symbols = None) -> HeapExceptionsAnswer:
        """Exception objects on the heap (pe -nested): threads' current exceptions first (in a
        crash dump, the one that killed the process), each with type, message, hResult, the
        stack trace it carries and its inner exception; byType counts them all."""
        check_count("limit", limit)

        def work(reader: HeapReader, source: HeapSource) -> HeapExceptionsAnswer:
            found = reader.exceptions(limit, symbols)
            return HeapExceptionsAnswer(source=source, completeness=found.completeness, exceptions=found.exceptions,
                                        by_type=found.by_type, total=found.total, truncated=found.truncated)

        return await _read(heaps, work)

    async def heap_threadpool(ctx: Context[Any, Any]) -> HeapThreadPoolAnswer:
        """The thread pool's worker threads (active, idle, retired), limits and CPU use, and the work
        queued but not started (global and local queues): counts by type and the first 100 items."""
        return await _read(heaps, lambda reader, source: HeapThreadPoolAnswer(source=source,
                                                                         thread_pool=reader.thread_pool()))

    add_tool(mcp, heap_threads, HeapThreadsAnswer, read_only=True, title="Threads and Stacks")
    add_tool(mcp, heap_locks, HeapLocksAnswer, read_only=True, title="Locks and Deadlocks")
    add_tool(mcp, heap_async, HeapAsyncAnswer, read_only=True, title="Async Chains")
    add_tool(mcp, heap_exceptions, HeapExceptionsAnswer, read_only=True, title="Exceptions on the Heap")
    add_tool(mcp, heap_threadpool, HeapThreadPoolAnswer, read_only=True, title="Thread Pool")
