"""`pyinspect heap retained|roots|instances|strings|segments|finalizer|snapshot|diff`:
questions answered from one heap graph snapshot (progress on stderr, --json rows): the heap
tools' bounded answers (pyinspect.session.heap_queries), their counts checked before any walk."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pyinspect.cli.grammar import (
    DumpOption,
    JsonOption,
    PidOption,
    TopOption,
    build_graph,
    graph_store,
    one_shot,
    print_completeness,
    print_object_json,
    print_rows,
    print_written,
)
from pyinspect.session.row_limits import check_count, first_rows

if TYPE_CHECKING:
    from pyinspect.models.heap_source import HeapSource
    from pyinspect.session.heap_terms import HeapGraph

__all__ = ["register"]


def register(heap_app: typer.Typer) -> None:
    """These commands, on `pyinspect heap` (pyinspect.cli.heap)."""
    heap_app.command("retained")(retained)
    heap_app.command("roots")(roots)
    heap_app.command("instances")(instances)
    heap_app.command("strings")(strings)
    heap_app.command("segments")(segments)
    heap_app.command("finalizer")(finalizer)
    heap_app.command("snapshot")(snapshot)
    heap_app.command("diff")(diff_snapshots)


def retained(ctx: typer.Context,
             addresses: Annotated[list[str] | None, typer.Argument(help="object addresses (none: top retainers)")] = None,
             pid: PidOption = None, dump: DumpOption = None, top: TopOption = None,
             by_type: Annotated[bool, typer.Option("--by-type", help="retained size per type")] = False,
             as_json: JsonOption = False) -> None:
    """Retained sizes (exact, from the dominator tree) of objects, the top retainers, or per type."""
    from pyinspect.session.heap_queries import check_addresses, retained_answer

    def run() -> None:
        check_count("top", top, None)
        wanted = check_addresses(addresses, by_type)
        shown = top if by_type or top is not None else 20
        answer = build_graph(pid, dump, graph_store(ctx), lambda g, s: retained_answer(g, s, wanted, shown, by_type))[0]
        if by_type:
            print_rows([{"type": r.type, "count": r.count, "totalSize": r.total_size,
                         "retainedSize": r.retained_size} for r in answer.types or ()], as_json,
                       {"type": lambda r: r["type"], "count": lambda r: r["count"],
                        "retained size": lambda r: r["retainedSize"]})
        else:
            print_rows([{"address": r.address, "type": r.type, "size": r.size, "retainedSize": r.retained_size}
                        for r in answer.objects or ()], as_json,
                       {"address": lambda r: r["address"], "type": lambda r: r["type"], "size": lambda r: r["size"],
                        "retained size": lambda r: r["retainedSize"]})
        print_completeness(answer.completeness, as_json)

    one_shot(run)


def roots(ctx: typer.Context, address: Annotated[str, typer.Argument(help="object address")], pid: PidOption = None,
          dump: DumpOption = None, max_paths: Annotated[int, typer.Option("--max-paths", help="1-10")] = 5,
          as_json: JsonOption = False) -> None:
    """Shortest retention paths from roots to an object, each step named."""
    from rich.console import Console

    from pyinspect.session.heap_queries import retention_answer
    from pyinspect.session.heap_terms import parse_address

    def run() -> None:
        check_count("max_paths", max_paths, None)
        where = parse_address(address)
        answer, completeness = build_graph(pid, dump, graph_store(ctx),
                                           lambda g, s: retention_answer(g, s, where, max_paths))
        found = answer.retention
        if as_json:
            print_object_json(found, completeness)
            return
        print_completeness(completeness, as_json)
        console = Console(markup=False, highlight=False)  # names are data: `[...]` in them is not markup
        state = "reachable" if found.reachable else "unreachable" if found.complete else "no path found"
        console.print(f"{found.type} at {found.address}: {state}, search complete: {found.complete}")
        if found.stopped_reason:
            console.print(f"stopped: {found.stopped_reason}")
        for path in found.paths:
            thread = f" (thread {path.root.thread})" if path.root.thread is not None else ""
            local = f" local `{path.root.local}`" if path.root.local else ""
            console.print(f"{path.root.kind} {path.root.name}{local}{thread}", style="bold")
            for step in path.steps:
                via = f".{step.field} -> " if step.field else "   "
                console.print(f"  {via}{step.address} {step.type}")

    one_shot(run)


def instances(ctx: typer.Context, type_name: Annotated[str, typer.Argument(help="full type name")],
              pid: PidOption = None, dump: DumpOption = None, start: Annotated[int, typer.Option("--start")] = 0,
              count: Annotated[int, typer.Option("--count", help="rows in the page (at least 1)")] = 100, as_json: JsonOption = False) -> None:
    """Instances of a type in address order, paged: address, size, generation, retained size."""
    from pyinspect.session.heap_queries import instances_answer

    def run() -> None:
        check_count("count", count, None)
        answer, completeness = build_graph(pid, dump, graph_store(ctx),
                                           lambda g, s: instances_answer(g, s, type_name, start, count))
        print_rows(list(answer.instances), as_json, {"address": lambda r: r.address, "size": lambda r: r.size,
                                   "generation": lambda r: r.generation, "live": lambda r: r.live,
                                   "retained size": lambda r: r.retained_size})
        print_completeness(completeness, as_json)

    one_shot(run)


def strings(ctx: typer.Context, pid: PidOption = None, dump: DumpOption = None, top: TopOption = 50,
            as_json: JsonOption = False) -> None:
    """String values held by several objects, most wasted bytes first."""
    from pyinspect.session.heap_queries import strings_answer

    def run() -> None:
        check_count("top", top, None)
        answer, completeness = build_graph(pid, dump, graph_store(ctx),
                                           lambda g, s: strings_answer(g, s, top, max_chars=None))
        print_rows(list(answer.strings), as_json, {"value": lambda r: r.value[:80], "count": lambda r: r.count,
                                   "size": lambda r: r.size, "wasted": lambda r: r.wasted_bytes})
        print_completeness(completeness, as_json)

    one_shot(run)


def segments(ctx: typer.Context, pid: PidOption = None, dump: DumpOption = None, as_json: JsonOption = False) -> None:
    """Generations (size, free, fragmentation, pinned objects) and every segment."""
    def run() -> None:
        layout, completeness = build_graph(pid, dump, graph_store(ctx), lambda g, _: g.layout())
        if as_json:
            print_object_json(layout, completeness)
            return
        print_completeness(completeness, as_json)
        print_rows(list(layout.generations), False,
                   {"generation": lambda r: r.generation, "size": lambda r: r.size, "free": lambda r: r.free_bytes,
                    "fragmentation": lambda r: f"{r.fragmentation:.1%}", "objects": lambda r: r.object_count,
                    "pinned": lambda r: r.pinned_objects})
        print_rows(list(layout.segments), False,
                   {"kind": lambda r: r.kind, "start": lambda r: r.start, "end": lambda r: r.end,
                    "objects": lambda r: r.object_bytes, "free": lambda r: r.free_bytes})

    one_shot(run)


def finalizer(ctx: typer.Context, pid: PidOption = None, dump: DumpOption = None, as_json: JsonOption = False) -> None:
    """Objects registered for finalization per type, and how many are queued (ready)."""
    from pyinspect.session.heap_queries import finalizer_answer

    def run() -> None:
        answer, completeness = build_graph(pid, dump, graph_store(ctx), lambda g, s: finalizer_answer(g, s, None))
        print_rows(list(answer.types), as_json, {"type": lambda r: r.type, "count": lambda r: r.count,
                                   "size": lambda r: r.total_size, "ready": lambda r: r.ready})
        print_completeness(completeness, as_json)

    one_shot(run)


def snapshot(ctx: typer.Context, output: Annotated[Path, typer.Option("-o", "--output", help="snapshot file to write")],
             pid: PidOption = None, dump: DumpOption = None,
             whole: Annotated[bool, typer.Option("--graph", help="save the whole graph (objects, references, "
                                                 "roots, dominators), not only the per-type table")] = False,
             as_json: JsonOption = False) -> None:
    """Save the live heap per type (count, size, retained size) for a later `heap diff`."""

    def save(g: HeapGraph, _: HeapSource) -> Path:
        return g.save_graph(output) if whole else g.snapshot().save(output)

    path, completeness = one_shot(lambda: build_graph(pid, dump, graph_store(ctx), save))
    print_written(path, "graph" if whole else "snapshot", as_json)
    print_completeness(completeness, as_json)


def diff_snapshots(before: Annotated[Path, typer.Argument(help="earlier snapshot file (per type or --graph)")],
                   after: Annotated[Path, typer.Argument(help="later snapshot file (per type or --graph)")],
                   top: TopOption = None, as_json: JsonOption = False) -> None:
    """Per type change in count, size and retained size from BEFORE to AFTER, growth first."""
    from pyinspect.models.completeness import Completeness
    from pyinspect.session.heap_terms import diff_snapshots as diff
    from pyinspect.session.heap_terms import load_snapshot

    def run() -> None:
        check_count("top", top, None)
        earlier, later = load_snapshot(before), load_snapshot(after)
        rows = list(first_rows(diff(earlier, later), top)[0])
        print_rows(rows, as_json,
                   {"type": lambda r: r.type, "count Δ": lambda r: r.count_delta, "size Δ": lambda r: r.size_delta,
                    "retained Δ": lambda r: r.retained_delta})
        print_completeness(Completeness.of([earlier.completeness, later.completeness]), as_json)

    one_shot(run)
