"""`pyinspect diagnose --pid P | --dump F [--json]`: what is wrong with a process or a dump.

One answer from every rule (pyinspect.session.diagnosis): findings ranked by severity, each
with its kind, statement, evidence and the commands that show more. A live process is frozen
while it is read, then released. ``--threshold name=value`` sets a threshold (docs/diagnose.md);
``--baseline FILE`` (an earlier ``heap snapshot``) adds what grew since, ``--record S`` GC pressure
over S seconds recorded first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pyinspect.cli.grammar import DumpOption, FrozenPidOption, JsonOption, one_shot, print_json
from pyinspect.errors import InvalidParameterError

if TYPE_CHECKING:
    from pyinspect.models.diagnosis import Diagnosis, Finding

__all__ = ["register"]

BaselineOption = Annotated[Path | None, typer.Option(
    "--baseline", help="an earlier `heap snapshot -o FILE` of the same process: what grew since")]
RecordOption = Annotated[float | None, typer.Option(
    "--record", help="with --pid: record its GCs and allocations for this many seconds first (GC pressure)")]
ThresholdOption = Annotated[list[str] | None, typer.Option(
    "--threshold", help="NAME=VALUE, e.g. retained_bytes=33554432 (repeatable; see docs/diagnose.md)")]


def register(app: typer.Typer) -> None:
    app.command("diagnose")(diagnose)


def _thresholds(items: list[str] | None) -> dict[str, str]:
    pairs = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise InvalidParameterError(f"--threshold takes NAME=VALUE, got {item!r}")
        pairs[name.strip()] = value.strip()
    return pairs


def diagnose(pid: FrozenPidOption = None, dump: DumpOption = None, baseline: BaselineOption = None,
             record: RecordOption = None, threshold: ThresholdOption = None, as_json: JsonOption = False) -> None:
    """What is wrong: deadlocks, starvation, stuck async work, a blocked finalizer, a crash,
    what holds the memory; findings ranked, each with its evidence."""
    def run() -> None:
        from pyinspect.cli.progress import walk_progress
        from pyinspect.session.diagnosis import (
            check_record_seconds,
            diagnose_dump,
            diagnose_process,
            parse_thresholds,
        )

        limits = parse_thresholds(_thresholds(threshold))
        if (pid is None) == (dump is None):
            raise InvalidParameterError("give exactly one of --pid or --dump")
        if record is not None and pid is None:
            raise InvalidParameterError("--record goes with --pid: a dump has no GCs to record")
        check_record_seconds(record)
        before = None
        if baseline is not None:
            # numpy loads only when a baseline is given
            from pyinspect.session.heap_terms import load_snapshot

            before = load_snapshot(baseline)
        with walk_progress() as advance:
            answer = diagnose_process(pid, limits, advance, before, record) if pid is not None \
                else diagnose_dump(dump or "", limits, advance, before)
        if as_json:
            print_json(answer)
        else:
            print(_report(answer))

    one_shot(run)


def _report(answer: Diagnosis) -> str:
    lines = [_describe(f) for f in answer.findings] or ["no findings: nothing looks wrong"]
    lines.append(f"checked: {', '.join(answer.checked)} in {answer.seconds:.2f} s")
    lines += [f"not checked: {kind}: {why}" for kind, why in answer.unchecked.items()]
    return "\n".join(lines)


def _describe(finding: Finding) -> str:
    lines = [f"{finding.severity.upper()} {finding.kind} ({finding.confidence} confidence): {finding.statement}"]
    for thread in finding.evidence.threads[:6]:
        name = f" '{thread.name}'" if thread.name else ""
        lines.append(f"  thread {thread.managed_thread_id}{name} (OS {thread.os_thread_id}): {thread.role}")
        for frame in thread.frames[:4]:
            where = f"  {frame.file}:{frame.line}" if frame.file else ""
            lines.append(f"      {frame.method}{where}")
    for obj in finding.evidence.objects[:6]:
        size = f", retains {obj.retained_size:,} bytes" if obj.retained_size is not None else ""
        lines.append(f"  object {obj.address} {obj.type}: {obj.role}{size}")
    for row in finding.evidence.types[:6]:
        lines.append(f"  type {row.type}: {row.count:,}")
    if finding.next_calls:
        lines.append(f"  more: {'; '.join(finding.next_calls)}")
    return "\n".join(lines)
