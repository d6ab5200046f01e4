"""The Heap's hang and crash questions (mixed into pyinspect.Heap): threads and stacks,
locks and deadlocks, async chains, exceptions, the thread pool, as DataFrames with the
same names as the CLI commands and MCP tools (heap_threads ... heap_threadpool); each
DataFrame says whether the dump was read whole in ``attrs["completeness"]``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyinspect.session.heap_terms import HeapReader
from pyinspect.session.heap_workspace import HeapWorkspace
from pyinspect.session.row_limits import check_count

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

    from pyinspect.models.completeness import Completeness
    from pyinspect.models.triage import Deadlock

__all__ = ["TriageMethods"]


def _frame(rows: list[dict[str, Any]], completeness: Completeness) -> pd.DataFrame:
    """Rows as a DataFrame; ``attrs["completeness"]`` says whether the dump was read whole."""
    import pandas as pd

    frame = pd.DataFrame(rows)
    frame.attrs["completeness"] = completeness
    return frame


class TriageMethods:
    heaps: HeapWorkspace

    @property
    def reader(self) -> HeapReader:
        """The reader of the heap this object opened (its workspace's)."""
        return self.heaps.reader()[0]

    def threads(self, symbols: str | None = None) -> pd.DataFrame:
        """One row per managed thread: os_thread_id, managed_thread_id, name, state,
        blocked_in, waiting_for, exception (type), top (its leaf frame with file:line), frames
        (count). Example: ``heap.threads().query("blocked_in == 'monitor'")``"""
        rows = []
        report = self.reader.threads_report(symbols=symbols)
        for t in report.threads:
            top = next((f for f in t.frames if f.kind == "managed"), None)
            rows.append({"os_thread_id": t.os_thread_id, "managed_thread_id": t.managed_thread_id, "name": t.name,
                         "state": ", ".join(t.state), "blocked_in": t.blocked_in, "waiting_for": t.waiting_for,
                         "exception": t.exception.type if t.exception else None,
                         "top": f"{top.method} {top.file}:{top.line}" if top and top.file else top.method if top else None,
                         "frames": len(t.frames)})
        return _frame(rows, report.completeness)

    def stack(self, thread: int, symbols: str | None = None) -> pd.DataFrame:
        """One thread's frames (by OS or managed id), leaf first: method, file, line,
        il_offset, kind, objects (addresses its slots hold). Raises InvalidParameterError.
        Example: ``heap.stack(12)``"""
        from pyinspect.errors import InvalidParameterError

        report = self.reader.threads_report(symbols=symbols)
        for t in report.threads:
            if thread in (t.os_thread_id, t.managed_thread_id):
                return _frame([{"method": f.method, "file": f.file, "line": f.line, "il_offset": f.il_offset,
                                "kind": f.kind, "objects": [o.address for o in f.objects or ()]} for f in t.frames],
                              report.completeness)
        raise InvalidParameterError(f"no managed thread with OS or managed id {thread}", thread=thread)

    def locks(self) -> pd.DataFrame:
        """One row per lock held or waited for: object, type, kind (monitor, lock,
        semaphore), owner (managed id and name), waiters, deadlock. Example: ``heap.locks()``"""
        def who(ref: Any) -> str | None:
            return None if ref is None else f"{ref.managed_thread_id}" + (f" '{ref.name}'" if ref.name else "")

        found = self.reader.locks()
        return _frame([{"object": lk.object, "type": lk.type, "kind": lk.kind, "owner": who(lk.owner),
                        "waiters": [who(w) for w in lk.waiters], "deadlock": lk.deadlock}
                       for lk in found.locks], found.completeness)

    def deadlocks(self) -> list[Deadlock]:
        """The deadlock cycles, each with its description ("thread A holds X and waits for Y; ...")."""
        return list(self.reader.locks().deadlocks)

    def async_chains(self, limit: int = 100, symbols: str | None = None) -> pd.DataFrame:
        """One row per async method of at most limit chains (chain, depth 0 = innermost):
        method, state, file, line, awaits, awaits_type, stuck. Example: ``heap.async_chains().query("stuck")``"""
        check_count("limit", limit, None)
        rows = []
        found = self.reader.async_chains(limit, symbols)
        for index, chain in enumerate(found.chains):
            for depth, frame in enumerate(chain.chain):
                rows.append({"chain": index, "depth": depth, "stuck": chain.stuck, **frame.model_dump()})
        return _frame(rows, found.completeness)

    def exceptions(self, limit: int = 100, symbols: str | None = None) -> pd.DataFrame:
        """One row per exception object, at most limit, threads' current ones first: address, type,
        message, h_result, thread, inner (type), top (first frame). Example: ``heap.exceptions().head()``"""
        check_count("limit", limit, None)
        found = self.reader.exceptions(limit, symbols)
        return _frame([{"address": e.address, "type": e.type, "message": e.message, "h_result": e.h_result,
                        "thread": e.thread, "inner": e.inner.type if e.inner else None,
                        "top": e.stack[0].method if e.stack else None}
                       for e in found.exceptions], found.completeness)

    def thread_pool(self) -> dict[str, Any]:
        """The thread pool's counts (active, idle, retired workers, limits, CPU use) and queued work by type."""
        return self.reader.thread_pool().model_dump()
