"""`pyinspect heap ...`: heap statistics, one object, and dumps, from the command line.

Errors print as one line ``error: CODE: message`` on stderr with exit status 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from pyinspect.errors import InvalidParameterError, PyInspectError

if TYPE_CHECKING:

    from pyinspect.heap.reader import HeapReader

__all__ = ["DumpOption", "JsonOption", "PidOption", "fail_on_error", "heap_app", "open_reader", "register"]

T = TypeVar("T")
heap_app = typer.Typer(no_args_is_help=True, help="Read a .NET process's heap or a core dump.")

PidOption = Annotated[int | None, typer.Option("--pid", help="live process id")]
DumpOption = Annotated[Path | None, typer.Option("--dump", help="core dump path")]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON instead of a table")]
DacOption = Annotated[Path | None, typer.Option(
    "--dac", help="with --dump: the libmscordaccore.so of the dump's runtime build (default: the one the dump "
                  "records, installed runtimes, folders in $PYINSPECT_DAC_SEARCH_PATH)")]


def register(app: typer.Typer) -> None:
    from pyinspect.cli import heap_graph  # noqa: F401 - registers the graph subcommands

    app.add_typer(heap_app, name="heap")


def fail_on_error(action: Callable[[], T]) -> T:
    try:
        return action()
    except PyInspectError as exc:
        print(f"error: {exc.code}: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None


@contextmanager
def open_reader(pid: int | None, dump: Path | None, dac: Path | None = None) -> Iterator[HeapReader]:
    from pyinspect.heap.reader import HeapReader

    if (pid is None) == (dump is None):
        raise InvalidParameterError("give exactly one of --pid or --dump")
    if dac is not None and dump is None:
        raise InvalidParameterError("--dac goes with --dump: a live process is read with its own runtime's DAC")
    reader = HeapReader.attach(pid) if pid is not None else HeapReader.open_dump(dump or "", dac=dac)
    try:
        yield reader
    finally:
        reader.close()


@heap_app.command("stats")
def stats(pid: PidOption = None, dump: DumpOption = None, dac: DacOption = None,
          top: Annotated[int | None, typer.Option("--top", help="only the K largest types")] = None,
          live: Annotated[bool, typer.Option("--live", help="only objects reachable from roots")] = False,
          dead: Annotated[bool, typer.Option("--dead", help="only objects no root reaches")] = False,
          as_json: JsonOption = False) -> None:
    """Count and total size per type, largest total first (progress on stderr)."""
    from rich.console import Console
    from rich.table import Table

    from pyinspect.answers.progress import walk_progress
    from pyinspect.models.heap import TypeStat

    def run() -> None:
        if live and dead:
            raise InvalidParameterError("give at most one of --live or --dead")
        with open_reader(pid, dump, dac) as reader, walk_progress(file=sys.stderr) as advance:
            if live or dead:
                graph = reader.graph(advance)
                rows = [TypeStat(type=r.type, count=r.count, total_size=r.total_size)
                        for r in graph.stats("live" if live else "dead")]
            else:
                rows = reader.stats(advance)
        rows = rows[:top] if top is not None else rows
        if as_json:
            print(json.dumps([r.model_dump(by_alias=True) for r in rows], indent=2, ensure_ascii=False))
            return
        table = Table("type", "count", "total size")
        for row in rows:
            table.add_row(row.type, f"{row.count:,}", f"{row.total_size:,}")
        Console().print(table)

    fail_on_error(run)


@heap_app.command("object")
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
            print(json.dumps(obj.to_inspection(), indent=2, ensure_ascii=False))
            return
        Console().print(f"{obj.type_name} at {obj.address}, size {obj.size}")
        table = Table("offset", "size", "name", "type", "value")
        for field in obj.fields:
            table.add_row(str(field.offset), str(field.size), field.name, field.type_name, field.value)
        Console().print(table)

    fail_on_error(run)


@heap_app.command("dump")
def dump_process(pid: Annotated[int, typer.Option("--pid", help="live process id")],
                 output: Annotated[Path, typer.Option("-o", "--output", help="dump file to write")]) -> None:
    """Write a full-heap core dump with the target runtime's own createdump."""
    from pyinspect.heap.reader import create_dump

    path = fail_on_error(lambda: create_dump(pid, output))
    print(str(path))
