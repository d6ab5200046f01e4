"""The command line's one grammar: the options commands share, the one way a command runs
and fails, and the ways answers print. Every command uses it.

Options are ``Annotated`` aliases: a command takes ``pid: PidOption = None``; an option more
than one command takes is declared here once (add the next one beside these). A command's
body runs through :func:`one_shot`: a PyInspectError prints ``error: CODE: message`` on
stderr with exit status 1. Every command takes ``--json``; a command that writes a file
answers a small record of what it wrote. The ``pyinspect`` entry point leaves through
:func:`finish` once a command's answer is out.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from pyinspect.cli.flags import DAC_FLAG, DUMP_FLAG
from pyinspect.errors import InvalidParameterError, PyInspectError

if TYPE_CHECKING:
    from pyinspect.models.completeness import Completeness
    from pyinspect.models.heap_source import HeapSource
    from pyinspect.session.heap_terms import HeapGraph, HeapReader
    from pyinspect.session.heap_workspace import HeapWorkspace

__all__ = ["DUMP_FLAG", "DacOption", "DumpOption", "FrozenPidOption", "GraphStore", "JsonOption", "LimitOption",
           "PidOption", "RequiredPidOption", "SymbolsOption", "TopOption", "build_graph", "finish",
           "graph_store", "graph_store_options", "one_shot", "open_heap", "open_reader", "print_completeness",
           "print_json", "print_object_json", "print_rows", "print_written", "say_where"]

T = TypeVar("T")

PidOption = Annotated[int | None, typer.Option("--pid", help="live process id")]
FrozenPidOption = Annotated[int | None, typer.Option("--pid", help="live process id (frozen while its stacks are read)")]
RequiredPidOption = Annotated[int, typer.Option("--pid", help="live process id")]
DumpOption = Annotated[Path | None, typer.Option(DUMP_FLAG, help="core dump path")]
DacOption = Annotated[Path | None, typer.Option(
    DAC_FLAG, help="with --dump: the libmscordaccore.so of the dump's runtime build (default: the first that "
                  "matches beside the dump, in its recorded or an installed runtime, the NuGet packages folder, "
                  "a symbol server or a NuGet feed: docs/dumps.md)")]
SymbolsOption = Annotated[Path | None, typer.Option("--symbols", help="a folder of PDBs besides each module's own")]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON instead of a table or report")]
TopOption = Annotated[int | None, typer.Option("--top", help="only the first K rows")]
LimitOption = Annotated[int, typer.Option("--limit", help="at most this many records")]
WorkFolderOption = Annotated[Path | None, typer.Option(
    "--work-folder", help="where a heap graph too large for memory keeps its arrays (memory-mapped files; default: "
                          "the temp folder)")]
MemoryLimitOption = Annotated[str | None, typer.Option(
    "--memory-limit", help="memory a heap graph may take, e.g. 8G (default: the machine's available memory, or "
                           "less under a container's or cgroup's limit); beyond it the graph's arrays go to the "
                           "work folder")]
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


@dataclass(frozen=True)
class GraphStore:
    """`pyinspect heap --work-folder --memory-limit`, as HeapWorkspace.graph takes them."""

    work_folder: str | None = None
    memory_limit: int = 0


def graph_store_options(ctx: typer.Context, work_folder: WorkFolderOption = None,
                        memory_limit: MemoryLimitOption = None) -> None:
    """Read a .NET process's heap or a core dump."""
    limit = one_shot(lambda: _bytes(memory_limit)) if memory_limit else 0
    ctx.obj = GraphStore(str(work_folder) if work_folder is not None else None, limit)


def graph_store(ctx: typer.Context) -> GraphStore:
    """The heap group's --work-folder and --memory-limit, handed to its command in the command's
    context (click gives a sub-command's context its group's ``obj``)."""
    return ctx.obj if isinstance(ctx.obj, GraphStore) else GraphStore()


def _bytes(text: str) -> int:
    """8G, 512M, 1024: bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if match is None or float(match[1]) <= 0:
        raise InvalidParameterError(f"--memory-limit takes a positive size like 8G or 512M, got {text}")
    return int(float(match[1]) * _UNITS[match[2].upper()])


def say_where(graph: HeapGraph) -> None:
    """On stderr, when the graph's arrays went to files (it would not fit in memory)."""
    folder = graph.summary().work_folder
    if folder is not None:
        print(f"the graph did not fit in memory: its arrays were in files under {folder}", file=sys.stderr)


def one_shot(action: Callable[[], T]) -> T:
    """Run a command's body: its answer, or its coded error on stderr and exit status 1."""
    try:
        return action()
    except PyInspectError as exc:
        print(f"error: {exc.code}: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None


def finish(status: int) -> NoReturn:
    """Flush stdout and stderr, then exit the process at once with status.

    A command that opened a dump through ClrMD and pythonnet spent seconds in interpreter
    shutdown (pythonnet finalizes the .NET runtime and every object it still tracks) after
    its answer was out; a one-shot command has nothing left to clean up then (readers are
    closed and a frozen process released inside the command). Only the entry point calls
    this: commands run inside another program (typer's CliRunner, an embedding) return. The
    runtime's shutdown would have removed its debugger pipes and diagnostics socket: they go here."""
    if "clr" in sys.modules:  # the heap helper's CoreCLR ran in this process
        from pyinspect.targets.runtime_files import remove_own_runtime_files

        remove_own_runtime_files()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


@contextmanager
def open_heap(pid: int | None, dump: Path | None, dac: Path | None = None, *,
              freeze: bool = False) -> Iterator[HeapWorkspace]:
    """A heap workspace on the target of --pid or --dump (exactly one); freeze: a live process
    stays frozen until it closes (stacks are read consistently), else it runs while its heap
    is read."""
    from pyinspect.session.heap_workspace import HeapWorkspace

    if (pid is None) == (dump is None):
        raise InvalidParameterError("give exactly one of --pid or --dump")
    if dac is not None and dump is None:
        raise InvalidParameterError("--dac goes with --dump: a live process is read with its own runtime's DAC")
    heaps = HeapWorkspace()
    if pid is not None:
        heaps.attach(pid, suspend=freeze)
    else:
        heaps.open_dump(dump or "", dac=dac)
    try:
        yield heaps
    finally:
        heaps.close()  # a frozen process resumes now


@contextmanager
def open_reader(pid: int | None, dump: Path | None, dac: Path | None = None, *,
                freeze: bool = False) -> Iterator[HeapReader]:
    """The reader of open_heap's workspace, for questions that need no graph."""
    with open_heap(pid, dump, dac, freeze=freeze) as heaps:
        yield heaps.reader()[0]


def build_graph(pid: int | None, dump: Path | None, store: GraphStore,
                use: Callable[[HeapGraph, HeapSource], T]) -> tuple[T, Completeness]:
    """Open the target, build its graph with progress on stderr (its arrays where store says):
    use(graph, source), and whether the graph holds the whole heap."""
    from pyinspect.cli.progress import walk_progress

    with open_heap(pid, dump) as heaps:
        with walk_progress() as advance:
            graph, source = heaps.graph(advance, work_folder=store.work_folder, memory_limit=store.memory_limit)
        say_where(graph)
        return use(graph, source), graph.completeness()


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
    print_json({**_plain(value, False), "completeness": completeness.model_dump(by_alias=True)})


def print_json(value: Any, exclude_none: bool = False) -> None:
    """Models and lists of models as camelCase JSON (exclude_none: fields that are None left out)."""
    print(json.dumps(_plain(value, exclude_none), indent=2, ensure_ascii=False))


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


def _plain(value: Any, exclude_none: bool) -> Any:
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True, exclude_none=exclude_none)
    if isinstance(value, list):
        return [_plain(v, exclude_none) for v in value]
    return value
