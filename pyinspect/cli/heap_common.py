"""What every `pyinspect heap` command shares: the sub-application, its options, the
one way errors print (``error: CODE: message`` on stderr, exit status 1), opening a target,
and JSON or table output. Every command takes ``--json``; a command that writes a file
answers a small record of what it wrote."""

from __future__ import annotations

import json
import re
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

__all__ = ["DacOption", "DumpOption", "JsonOption", "PidOption", "TopOption", "build_graph", "fail_on_error",
           "graph_store", "heap_app", "open_reader", "print_json", "print_rows", "print_written", "say_where"]

T = TypeVar("T")
heap_app = typer.Typer(no_args_is_help=True, help="Read a .NET process's heap or a core dump.")
_graph_store: dict[str, Any] = {"work_folder": None, "memory_limit": 0}
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


@heap_app.callback()
def graph_store_options(
        work_folder: Annotated[Path | None, typer.Option(
            "--work-folder", help="where a graph too large for memory keeps its arrays (memory-mapped files; "
                                  "default: the temp folder)")] = None,
        memory_limit: Annotated[str | None, typer.Option(
            "--memory-limit", help="memory a graph may take, e.g. 8G (default: the machine's available memory); "
                                   "beyond it the graph's arrays go to the work folder")] = None) -> None:
    """Read a .NET process's heap or a core dump."""
    _graph_store["work_folder"] = str(work_folder) if work_folder is not None else None
    _graph_store["memory_limit"] = fail_on_error(lambda: _bytes(memory_limit)) if memory_limit else 0


def _bytes(text: str) -> int:
    """8G, 512M, 1024: bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if match is None or float(match[1]) <= 0:
        raise InvalidParameterError(f"--memory-limit takes a positive size like 8G or 512M, got {text}")
    return int(float(match[1]) * _UNITS[match[2].upper()])

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


def build_graph(pid: int | None, dump: Path | None, use: Callable[[HeapGraph], Any]) -> Any:
    """Open the target, build its graph with progress on stderr, answer use(graph)."""
    from pyinspect.answers.progress import walk_progress

    with open_reader(pid, dump) as reader:
        with walk_progress(file=sys.stderr) as advance:
            graph = reader.graph(advance, **_graph_store)
        say_where(graph)
        return use(graph)


def say_where(graph: HeapGraph) -> None:
    """On stderr, when the graph's arrays went to files (it would not fit in memory)."""
    folder = graph.summary().work_folder
    if folder is not None:
        print(f"the graph did not fit in memory: its arrays were in files under {folder}", file=sys.stderr)


def graph_store() -> dict[str, Any]:
    """The heap command's --work-folder and --memory-limit, as HeapReader.graph takes them."""
    return dict(_graph_store)


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
