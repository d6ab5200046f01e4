"""Notebook face of a recording: ``rec = pyinspect.record(pid)`` or ``with dbg.record() as
rec:`` records the runtime's events until ``rec.stop()`` (or the end of the ``with``
block); then its tables are DataFrames and pyinspect.notebook.plots draws them.

    with dbg.record() as rec:
        dbg.resume()              # exercise the program
    rec.allocations().head()         # type, estimated_bytes, samples, top_method, top_share
    rec.stacks("MyApp.Order")        # the stacks that allocate one type, with their shares
    plot_gc_timeline(rec.gcs())      # heap size per generation, each GC marked
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyinspect.errors import UnknownTypeError
from pyinspect.models.trace import TraceAnswer
from pyinspect.notebook.closing import ClosesOnExit
from pyinspect.tracing.recorder import Recorder, start_recording

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["Recording", "record"]

_GENERATIONS = ("gen0", "gen1", "gen2", "loh", "poh")


class Recording(ClosesOnExit):
    """One recording of one process. Its tables stop it first (a stopped recording keeps
    its answer); close() stops it too, so nothing is left running."""

    def __init__(self, recorder: Recorder, check_can_stop: Callable[[], None] | None = None) -> None:
        self._recorder = recorder
        self._check_can_stop = check_can_stop
        self._answer: TraceAnswer | None = None

    @property
    def pid(self) -> int:
        return self._recorder.pid

    @property
    def running(self) -> bool:
        return self._answer is None and self._recorder.running

    def stop(self) -> TraceAnswer:
        """End the recording and read its events (a few seconds); answers trace_stop's model.
        Example: ``answer = rec.stop(); answer.window_seconds``"""
        if self._answer is None:
            if self._check_can_stop is not None and self._recorder.running:
                self._check_can_stop()  # a debuggee paused now could not end the session
            self._answer = self._recorder.stop()
        return self._answer

    def close(self) -> None:
        self.stop()

    def allocations(self) -> pd.DataFrame:
        """Bytes allocated per type in the window (estimates: `samples` says from how many
        sampled events): type, estimated_bytes, estimated_count, samples, top_method,
        top_share. Example: ``rec.allocations().head(10)``"""
        rows = [{"type": a.type, "estimated_bytes": a.estimated_bytes, "estimated_count": a.estimated_count,
                 "samples": a.samples, "top_method": a.top_stacks[0].method if a.top_stacks else None,
                 "top_share": a.top_stacks[0].share if a.top_stacks else None} for a in self.stop().allocations]
        return _frame(rows, ["type", "estimated_bytes", "estimated_count", "samples", "top_method", "top_share"])

    def stacks(self, type_name: str) -> pd.DataFrame:
        """The stacks that allocated type_name, most samples first: method (first frame in
        user code), share, samples, estimated_bytes, frames (leaf first, joined by ' <- ').
        Raises UnknownTypeError for a type with no sample. Example: ``rec.stacks("MyApp.Order")``"""
        found = next((a for a in self.stop().allocations if a.type == type_name), None)
        if found is None:
            raise UnknownTypeError(f"no allocation of {type_name} was sampled in the recording", type=type_name)
        rows = [{"method": s.method, "share": s.share, "samples": s.samples, "estimated_bytes": s.estimated_bytes,
                 "frames": " <- ".join(s.frames)} for s in found.top_stacks]
        return _frame(rows, ["method", "share", "samples", "estimated_bytes", "frames"])

    def gcs(self) -> pd.DataFrame:
        """Every GC in the window: number, generation, reason, kind, start_ms, pause_ms,
        <gen>_before and <gen>_after bytes for gen0, gen1, gen2, loh, poh, promoted_bytes.
        Example: ``rec.gcs().pause_ms.describe()``"""
        rows = []
        for g in self.stop().gcs:
            row: dict[str, Any] = {"number": g.number, "generation": g.generation, "reason": g.reason,
                                   "kind": g.kind, "start_ms": g.start_ms, "pause_ms": g.pause_ms}
            for gen in _GENERATIONS:
                row[f"{gen}_before"] = (g.sizes_before or {}).get(gen)
                row[f"{gen}_after"] = g.sizes_after.get(gen)
            row["promoted_bytes"] = g.promoted_bytes
            rows.append(row)
        columns = ["number", "generation", "reason", "kind", "start_ms", "pause_ms",
                   *(f"{g}_{w}" for g in _GENERATIONS for w in ("before", "after")), "promoted_bytes"]
        return _frame(rows, columns)

    def counters(self) -> pd.DataFrame:
        """The runtime's counters each second, one row per value: seconds, name (alloc-rate,
        time-in-gc, gen-0-size ... gc-fragmentation, exception-count), value, unit.
        Example: ``rec.counters().pivot_table(index="seconds", columns="name", values="value")``"""
        rows = [c.model_dump() for c in self.stop().counters]
        return _frame(rows, ["seconds", "name", "value", "unit"])


def record(pid: int, *, allocations: bool = True, gc: bool = True, max_seconds: float = 600.0,
           check_can_stop: Callable[[], None] | None = None) -> Recording:
    """Start recording a running .NET process's events (it keeps running): allocations with
    their stacks, GCs, counters. Stop with ``rec.stop()`` or use it in a ``with`` block.

    Args: pid; allocations (sample allocations with stacks), gc (GCs and counters),
    max_seconds (it stops by itself then); check_can_stop (raises when the recording cannot
    be stopped now: Debugger.record's refusal while the debuggee is paused). Raises ProcessNotFoundError,
    NotDotNetProcessError. Example: ``rec = pyinspect.record(1234); ...; rec.gcs()``"""
    return Recording(start_recording(pid, allocations=allocations, gc=gc, max_seconds=max_seconds), check_can_stop)


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=columns)
