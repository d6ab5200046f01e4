"""`pyinspect threads|locks|async|exceptions|threadpool`: why is it hung, why did it die.

Each reads a dump (``--dump``) or a live process (``--pid``; frozen only while its stacks
are read, then released) through ClrMD and prints a readable report, or with ``--json``
the plain records (pyinspect.models.triage). Errors print ``error: CODE: message``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pyinspect.cli.grammar import (
    DumpOption,
    FrozenPidOption,
    JsonOption,
    LimitOption,
    SymbolsOption,
    one_shot,
    open_reader,
    print_completeness,
    print_json,
)
from pyinspect.session.row_limits import check_count

if TYPE_CHECKING:
    from pyinspect.models.triage import ExceptionInfo, StackFrame, ThreadInfo

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    app.command("threads")(threads)
    app.command("locks")(locks)
    app.command("async")(async_chains)
    app.command("exceptions")(exceptions)
    app.command("threadpool")(threadpool)


def _thread_label(os_id: int, managed: int, name: str | None) -> str:
    return f"thread {managed}" + (f" '{name}'" if name else "") + f" (OS {os_id})"


def _frame_line(frame: StackFrame) -> str:
    where = f"  {frame.file}:{frame.line}" if frame.file else f"  (no file and line: {frame.symbols})" \
        if frame.symbols else ""
    return f"    {frame.method}{where}"


def threads(pid: FrozenPidOption = None, dump: DumpOption = None, symbols: SymbolsOption = None,
            frames: Annotated[int, typer.Option("--frames", help="at most this many frames per thread")] = 200,
            objects: Annotated[bool, typer.Option("--objects", help="list each frame's stack objects")] = False,
            as_json: JsonOption = False) -> None:
    """Every managed thread and its stack (clrstack -all): ids, name, state, blocked in, exception."""
    def run() -> None:
        with open_reader(pid, dump, freeze=True) as reader:
            report = reader.threads_report(frames, str(symbols) if symbols else None)
        if as_json:
            print_json(list(report.threads), exclude_none=True)
        else:
            for thread in report.threads:
                print(_describe_thread(thread, objects))
        print_completeness(report.completeness, as_json)

    one_shot(run)


def _describe_thread(thread: ThreadInfo, objects: bool) -> str:
    notes = [*thread.state]
    if thread.blocked_in:
        notes.append(f"blocked in {thread.blocked_in}" + (f" on {thread.waiting_for}" if thread.waiting_for else ""))
    lines = [f"{_thread_label(thread.os_thread_id, thread.managed_thread_id, thread.name)}  [{', '.join(notes)}]"]
    if thread.exception is not None:
        lines.append(f"  exception {thread.exception.type}: {thread.exception.message}")
    for frame in thread.frames:
        lines.append(_frame_line(frame))
        for held in (frame.objects or ()) if objects else ():
            lines.append(f"        {held.address} {held.type}")
    return "\n".join(lines)


def locks(pid: FrozenPidOption = None, dump: DumpOption = None, symbols: SymbolsOption = None,
          as_json: JsonOption = False) -> None:
    """Locks held and waited for (syncblk, thin locks, System.Threading.Lock, SemaphoreSlim) and deadlocks."""
    def run() -> None:
        with open_reader(pid, dump, freeze=True) as reader:
            answer = reader.locks(str(symbols) if symbols else None)
        if as_json:
            print_json(answer, exclude_none=True)
            return
        print_completeness(answer.completeness, as_json)
        for deadlock in answer.deadlocks:
            print(deadlock.description)
        for held in answer.locks:
            owner = _thread_label(held.owner.os_thread_id, held.owner.managed_thread_id, held.owner.name) \
                if held.owner else "no owner"
            waiters = ", ".join(_thread_label(w.os_thread_id, w.managed_thread_id, w.name) for w in held.waiters)
            print(f"{held.kind} {held.type} {held.object}: held by {owner}"
                  + (f"; waiting: {waiters}" if waiters else "") + ("  DEADLOCK" if held.deadlock else ""))

    one_shot(run)


def async_chains(pid: FrozenPidOption = None, dump: DumpOption = None, symbols: SymbolsOption = None,
                 limit: LimitOption = 100, as_json: JsonOption = False) -> None:
    """Async state machines as chains, innermost await first, stuck chains first (dumpasync)."""
    def run() -> None:
        check_count("limit", limit, None)
        with open_reader(pid, dump, freeze=True) as reader:
            answer = reader.async_chains(limit, str(symbols) if symbols else None)
        if as_json:
            print_json(answer, exclude_none=True)
            return
        print_completeness(answer.completeness, as_json)
        for chain in answer.chains:
            print(("STUCK: " + (chain.reason or "")) if chain.stuck else "chain:")
            for frame in chain.chain:
                where = f"  {frame.file}:{frame.line}" if frame.file else ""
                print(f"    {frame.method} (state {frame.state}){where}  awaits {frame.awaits_type} {frame.awaits}")

    one_shot(run)


def exceptions(pid: FrozenPidOption = None, dump: DumpOption = None, symbols: SymbolsOption = None,
               limit: LimitOption = 100, as_json: JsonOption = False) -> None:
    """Exception objects on the heap, threads' current ones (a crash's) first, with stack and inner."""
    def run() -> None:
        check_count("limit", limit, None)
        with open_reader(pid, dump, freeze=True) as reader:
            answer = reader.exceptions(limit, str(symbols) if symbols else None)
        if as_json:
            print_json(answer, exclude_none=True)
            return
        print_completeness(answer.completeness, as_json)
        for exception in answer.exceptions:
            print(_describe_exception(exception, ""))
        print(f"{answer.total} exception objects: " + ", ".join(f"{t.type_name} {t.count}" for t in answer.by_type))

    one_shot(run)


def _describe_exception(exception: ExceptionInfo, indent: str) -> str:
    on = f" (current on thread OS {exception.thread}{' ' + repr(exception.thread_name) if exception.thread_name else ''})" \
        if exception.thread else ""
    lines = [f"{indent}{exception.type} {exception.address}{on}: {exception.message} (HResult 0x{exception.h_result & 0xFFFFFFFF:08X})"]
    lines += [indent + _frame_line(frame) for frame in exception.stack]
    if exception.inner is not None:
        lines.append(f"{indent}  inner:")
        lines.append(_describe_exception(exception.inner, indent + "  "))
    return "\n".join(lines)


def threadpool(pid: FrozenPidOption = None, dump: DumpOption = None, as_json: JsonOption = False) -> None:
    """The thread pool's worker counts and limits, and its queued work items by type (threadpool -wi)."""
    def run() -> None:
        with open_reader(pid, dump, freeze=True) as reader:
            answer = reader.thread_pool()
        if as_json:
            print_json(answer, exclude_none=True)
            return
        for name, value in answer.model_dump(exclude={"queued_by_type", "queued_items"}).items():
            print(f"{name}: {value}")
        for queued in answer.queued_by_type:
            print(f"  queued {queued.count:>6} {queued.type}  (global {queued.global_}, local {queued.local})")

    one_shot(run)
