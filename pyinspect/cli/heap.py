"""`pyinspect heap stats|object|dump`: heap statistics, one object, and dumps; the graph
questions (retained, roots, snapshot, diff...) are in heap_graph.py, registered with these
under one `pyinspect heap` sub-application."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pyinspect.cli import heap_graph
from pyinspect.cli.grammar import (
    DacOption,
    DumpOption,
    JsonOption,
    PidOption,
    RequiredPidOption,
    graph_store,
    graph_store_options,
    one_shot,
    open_heap,
    open_reader,
    print_completeness,
    print_json,
    say_where,
)
from pyinspect.errors import InvalidParameterError
from pyinspect.session.row_limits import check_count, first_rows

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """`pyinspect heap`: these commands, then the graph questions, one sub-application."""
    heap_app = typer.Typer(no_args_is_help=True, help="Read a .NET process's heap or a core dump.")
    heap_app.callback()(graph_store_options)
    heap_app.command("stats")(stats)
    heap_app.command("object")(inspect_object)
    heap_app.command("dump")(dump_process)
    heap_graph.register(heap_app)
    app.add_typer(heap_app, name="heap")


def stats(ctx: typer.Context, pid: PidOption = None, dump: DumpOption = None, dac: DacOption = None,
          top: Annotated[int | None, typer.Option("--top", help="only the K largest types")] = None,
          live: Annotated[bool, typer.Option("--live", help="only objects reachable from roots")] = False,
          dead: Annotated[bool, typer.Option("--dead", help="only objects no root reaches")] = False,
          as_json: JsonOption = False) -> None:
    """Count and total size per type, largest total first (progress on stderr)."""
    # what one branch alone uses loads in it: the graph's queries (--live, --dead), rich (a table)
    from pyinspect.cli.progress import walk_progress
    from pyinspect.models.heap import TypeStat

    def run() -> None:
        if live and dead:
            raise InvalidParameterError("give at most one of --live or --dead")
        check_count("top", top, None)
        store = graph_store(ctx)
        with open_heap(pid, dump, dac) as heaps, walk_progress() as advance:
            if live or dead:
                from pyinspect.session.heap_queries import stats_answer

                graph, source = heaps.graph(advance, work_folder=store.work_folder, memory_limit=store.memory_limit)
                say_where(graph)
                answer = stats_answer(graph, source, "live" if live else "dead", top)
                rows = [TypeStat(type=r.type, count=r.count, total_size=r.total_size) for r in answer.types]
                completeness = answer.completeness
            else:
                every = heaps.reader()[0].stats(advance)
                rows, completeness = list(first_rows(every, top)[0]), every.completeness
        if as_json:
            print_json(rows)
        else:
            from rich.console import Console
            from rich.table import Table

            table = Table("type", "count", "total size")
            for row in rows:
                table.add_row(row.type, f"{row.count:,}", f"{row.total_size:,}")
            Console().print(table)
        print_completeness(completeness, as_json)

    one_shot(run)


def inspect_object(address: Annotated[str, typer.Argument(help="object address, e.g. 0x7f...")],
                   pid: PidOption = None, dump: DumpOption = None, dac: DacOption = None,
                   depth: Annotated[int, typer.Option("--depth", help="expansion depth 1-10")] = 1,
                   as_json: JsonOption = False) -> None:
    """One object in object_inspect's `inspection` shape (offsets from its address)."""
    from rich.console import Console
    from rich.table import Table


    def run() -> None:
        with open_reader(pid, dump, dac) as reader:
            obj = reader.object(address, depth)
        if as_json:
            print_json(obj.to_inspection())
            return
        Console().print(f"{obj.type_name} at {obj.address}, size {obj.size}")
        table = Table("offset", "size", "name", "type", "value")
        for field in obj.fields:
            table.add_row(str(field.offset), str(field.size), field.name, field.type_name, field.value)
        Console().print(table)

    one_shot(run)


def dump_process(pid: RequiredPidOption,
                 output: Annotated[Path, typer.Option("-o", "--output", help="dump file to write")],
                 as_json: JsonOption = False) -> None:
    """Write a full-heap core dump with the target runtime's own createdump; its runtime's DAC
    is kept beside it in OUTPUT.dac/ (carry that folder with the dump)."""
    from pyinspect.session.dump_writing import write_dump

    answer = one_shot(lambda: write_dump(pid, output.absolute()))
    if as_json:
        print_json({"path": answer.path, "kind": "dump", "bytes": answer.size_bytes,
                    "keptBeside": list(answer.kept_beside)})
        return
    print(answer.path)
    if answer.kept_beside:
        print(f"kept its runtime's DAC beside it: {Path(answer.kept_beside[0]).parent}/", file=sys.stderr)
