"""`pyinspect trace --pid N --seconds S`: record a process's runtime events for S seconds
(a progress bar while it records) and print who allocated what, every GC and the
counters; --json prints trace_stop's answer.

Errors print as one line ``error: CODE: message`` on stderr with exit status 1.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Annotated

import typer

from pyinspect.cli.grammar import JsonOption, RequiredPidOption, one_shot, print_json
from pyinspect.errors import InvalidParameterError

if TYPE_CHECKING:  # rich, pydantic and the recorder load only when a recording runs, not for --help
    from pyinspect.models.trace import TraceAnswer
    from pyinspect.tracing.recorder import Recorder

__all__ = ["register", "trace"]


def register(app: typer.Typer) -> None:
    app.command("trace")(trace)


def trace(pid: RequiredPidOption,
          seconds: Annotated[float, typer.Option("--seconds", help="how long to record")] = 10.0,
          as_json: JsonOption = False,
          allocations: Annotated[bool, typer.Option(help="sample allocations with their stacks")] = True,
          gc: Annotated[bool, typer.Option(help="record GCs and counters")] = True,
          top: Annotated[int, typer.Option("--top", help="allocating types shown")] = 15) -> None:
    """Record a .NET process's own event stream (it keeps running): bytes allocated per
    type with the allocating stacks (estimates from the runtime's sampling), every GC with
    its pause and sizes, and the runtime's counters each second."""
    from pyinspect.tracing.recorder import MAX_SECONDS, start_recording

    def record() -> TraceAnswer:
        if not 0 < seconds <= MAX_SECONDS:
            raise InvalidParameterError(f"--seconds must be in (0, {MAX_SECONDS:.0f}]")
        recorder = start_recording(pid, allocations=allocations, gc=gc, max_seconds=seconds + 30)
        try:
            _wait_with_progress(recorder, seconds)
            if not as_json:
                print("reading the events...", file=sys.stderr)
            return recorder.stop()
        finally:
            recorder.close()

    answer = one_shot(record)
    if as_json:
        print_json(answer)
    else:
        _print_tables(answer, top)


def _wait_with_progress(recorder: Recorder, seconds: float) -> None:
    """A seconds bar on stderr until the window ends or the target exits."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    with tqdm(total=round(seconds, 1), unit="s", desc=f"recording {recorder.pid}", leave=False,
              file=sys.stderr) as bar:
        while recorder.running and recorder.seconds < seconds:
            time.sleep(min(0.25, max(seconds - recorder.seconds, 0.01)))
            bar.update(round(min(recorder.seconds, seconds), 1) - bar.n)
            progress = recorder.progress()
            if progress is not None:
                bar.set_postfix(events=f"{progress.get('bytes', 0) / 1e6:.1f} MB")


def _print_tables(answer: TraceAnswer, top: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 200)
    sampling = answer.sampling
    console.print(f"process {answer.pid} (.NET {answer.runtime_version}), {answer.window_seconds:.1f} s"
                  + (" [red](exited during the recording)[/red]" if answer.target_exited else ""))
    if sampling.allocation_event:
        console.print(f"allocations: estimates from {sampling.allocation_samples} {sampling.allocation_event} samples")
        table = Table("type", "est. bytes", "est. objects", "samples", "top allocating method (share)")
        for row in answer.allocations[:top]:
            stack = row.top_stacks[0] if row.top_stacks else None
            where = f"{_short_method(stack.method or (stack.frames[0] if stack.frames else '?'))} ({stack.share:.0%})" \
                if stack else ""
            table.add_row(row.type, f"{row.estimated_bytes:,}", f"{row.estimated_count:,}", str(row.samples), where)
        console.print(table)
    if sampling.gc:
        per_gen = Counter(g.generation for g in answer.gcs)
        pauses = [g.pause_ms for g in answer.gcs]
        console.print(f"GCs: {len(answer.gcs)} (" + ", ".join(f"gen{k}: {v}" for k, v in sorted(per_gen.items()))
                      + f"), pauses total {sum(pauses):.1f} ms, longest {max(pauses, default=0):.1f} ms")
        names = sorted({c.name for c in answer.counters})
        table = Table("counter", "last", "max", "unit")
        for name in names:
            values = [c for c in answer.counters if c.name == name]
            table.add_row(name, f"{values[-1].value:,.2f}", f"{max(v.value for v in values):,.2f}", values[-1].unit)
        if names:
            console.print(table)


def _short_method(method: str) -> str:
    """Namespace.Type.Method without its parameter list (the JSON keeps the full signature)."""
    return method.split("(", 1)[0]
