"""What every `pyinspect heap` command shares: the sub-application, its options, the
one way errors print (``error: CODE: message`` on stderr, exit status 1), opening a target,
and JSON or table output. Every command takes ``--json``; a command that writes a file
answers a small record of what it wrote."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from pyinspect.errors import InvalidParameterError, PyInspectError

if TYPE_CHECKING:

    from pyinspect.heap.graph import HeapGraph
    from pyinspect.heap.reader import HeapReader
    from pyinspect.models.completeness import Completeness

__all__ = ["DacOption", "DumpOption", "JsonOption", "PidOption", "TopOption", "build_graph", "fail_on_error",
           "heap_app", "open_reader", "print_completeness", "print_json", "print_object_json", "print_rows", "print_written"]

T = TypeVar("T")
heap_app = typer.Typer(no_args_is_help=True, help="Read a .NET process's heap or a core dump.")

PidOption = Annotated[int | None, typer.Option("--pid", help="live process id")]
DumpOption = Annotated[Path | None, typer.Option("--dump", help="core dump path")]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON instead of a table")]
TopOption = Annotated[int | None, typer.Option("--top", help="only the first K rows")]
DacOption = Annotated[Path | None, typer.Option(
    "--dac", help="with --dump: the libmscordaccore.so of the dump's runtime build (default: the one the dump "
                  "records, installed runtimes, folders in $PYINSPECT_DAC_SEARCH_PATH)")]


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


def build_graph(pid: int | None, dump: Path | None, use: Callable[[HeapGraph], T]) -> tuple[T, Completeness]:
    """Open the target, build its graph with progress on stderr: use(graph), and whether
    the graph holds the whole heap."""
    from pyinspect.answers.progress import walk_progress

    with open_reader(pid, dump) as reader:
        with walk_progress(file=sys.stderr) as advance:
            graph = reader.graph(advance)
        return use(graph), graph.completeness()


def print_completeness(completeness: Completeness, as_json: bool) -> None:
    """Whether the answer above read the whole heap. With --json: one line on stderr,
    ``{"completeness": {...}}``, always (the rows on stdout keep their shape); else a line
    after the answer, only when something was left unread (a damaged dump)."""
    if as_json:
        print(json.dumps({"completeness": completeness.model_dump(by_alias=True)}), file=sys.stderr)
    elif not completeness.complete:
        print(completeness.describe())


def print_object_json(value: Any, completeness: Completeness) -> None:
    """A one-object answer as JSON with its ``completeness`` inside."""
    print_json({**_plain(value), "completeness": completeness.model_dump(by_alias=True)})


def print_json(value: Any) -> None:
    print(json.dumps(_plain(value), indent=2, ensure_ascii=False))


def print_rows(rows: list[Any], as_json: bool, columns: dict[str, Callable[[Any], object]]) -> None:
    """JSON rows (camelCase) or a table whose columns are given as name -> getter."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    if as_json:
        print_json(rows)
        return
    table = Table(*columns)
    for row in rows:
        table.add_row(*(f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else escape(str(v))
                        for v in (get(row) for get in columns.values())))
    Console().print(table)


def print_written(path: Path, kind: str, as_json: bool) -> None:
    """What a file-writing command wrote: its path, or with --json {path, kind, bytes}."""
    if as_json:
        print_json({"path": str(path), "kind": kind, "bytes": path.stat().st_size})
    else:
        print(str(path))


def _plain(value: Any) -> Any:
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
