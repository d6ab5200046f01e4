"""Running a heap tool's work in a worker thread: the heap walk's progress and then the graph's
phases go to the client (MCP progress, or its task's status when the call is an MCP task:
pyinspect.server.tasks), and a cancelled request or task stops the walk at its next batch, or
the phase after it under way at its next checkpoint (pyinspect.heap.stepping)."""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.server.mcpserver import Context

from pyinspect.server.tasks import running_task
from pyinspect.session.heap_terms import ProgressCallback
from pyinspect.session.heap_workspace import BuildCancelled

__all__ = ["in_thread"]

log = logging.getLogger("pyinspect.server.tools.heap")  # the walk's log lines, where they always were
T = TypeVar("T")
_PROGRESS_EVERY = 0.25


def _progress_reporter(ctx: Context[Any, Any], cancelled: threading.Event) -> ProgressCallback:
    """Called in the worker thread between walk batches and then between the calls of the
    graph's phases after the walk: stop when cancelled, else tell the client how far the build
    is (at most every 0.25 s, at each new phase, and at the end): as MCP progress, or as its
    task's status when the call is an MCP task (pyinspect.server.tasks)."""
    last_at, last_phase = 0.0, ""
    task = running_task()

    def report(walked: int, total: int, phase: str | None = None) -> None:
        nonlocal last_at, last_phase
        stopping = cancelled.is_set() or (task is not None and task.stop.is_set())
        if stopping and task is not None and task.keep_built and walked >= total and phase is None:
            task.report("the graph was built when the cancel came: it is kept for the next call")
            return  # a task's last report: what is built is kept, the cancelled scope ends the call
        if stopping:
            where = f"the heap walk stopped at {walked:,} of {total:,} bytes" if phase is None \
                else f"the heap walk had ended; cancelling {phase}"
            log.info("%s: the request was cancelled", where)
            if task is not None:
                task.report(where)
            raise BuildCancelled(where)
        now = time.monotonic()
        if now - last_at < _PROGRESS_EVERY and walked < total and (phase or "") == last_phase:
            return
        last_at, last_phase = now, phase or ""
        if task is not None:
            task.report(f"walking the heap: {walked:,} of {total:,} bytes ({100 * walked // max(total, 1)}%)"
                        if phase is None else f"building the heap graph: {phase} (the walk is done)")
            return
        what = "walking the heap (bytes)" if phase is None else f"building the heap graph: {phase}"
        try:
            anyio.from_thread.run(functools.partial(ctx.report_progress, walked, total, what))
        except Exception:
            log.debug("progress not delivered", exc_info=True)

    return report


async def in_thread(ctx: Context[Any, Any], work: Callable[[ProgressCallback], T]) -> T:
    """Run work(progress) in a worker thread; a cancelled request stops it at its next batch or
    checkpoint (an MCP task's cancel waits for that, so the task says where the build stopped)."""
    cancelled = threading.Event()
    try:
        return await anyio.to_thread.run_sync(lambda: work(_progress_reporter(ctx, cancelled)),
                                              abandon_on_cancel=running_task() is None)
    except anyio.get_cancelled_exc_class():
        cancelled.set()
        raise
    except BuildCancelled as stopped:
        task = running_task()
        if task is not None:
            task.report(str(stopped))  # where it stopped, as the build says it (a phase after the walk)
        await anyio.lowlevel.checkpoint()  # an MCP task's cancel: its cancelled scope ends the call here
        raise


