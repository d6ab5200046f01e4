"""The `pyinspect` command line: one sub-application per area.

    pyinspect heap ...   read a live process's heap or a dump (pyinspect/cli/heap.py)
    pyinspect dap        run our DAP debug adapter on stdio (pyinspect/cli/dap.py)
    pyinspect serve      the MCP server for AI agents (pyinspect/cli/serve.py)
    pyinspect ps         the machine's .NET processes (pyinspect/cli/ps.py)
    pyinspect trace      record allocations, GCs and counters over time (pyinspect/cli/trace.py)
    pyinspect threads|locks|async|exceptions|threadpool   hang and crash triage (pyinspect/cli/triage.py)
    pyinspect diagnose   what is wrong, with its evidence (pyinspect/cli/diagnose.py)

Each area module defines `register(app)` and nothing registers as a module loads; add a new
area's module to `_AREAS`; pyinspect/cli/root.py builds the root group with the areas a
command line needs. What commands share (options, the one-shot runner, output) is
pyinspect/cli/grammar.py.
`pyinspect serve` loads only its own area: every agent session waits for the MCP
server's first answer, and the heap area alone (ClrMD models, pandas-free but large)
costs a fifth of the start. `pyinspect serve` on stdio claims its wire before even the
command line library loads (pyinspect.server.stdio_wire), so that nothing an import
prints reaches the protocol stream.
A command that reads a dump starts the dump's reader process before anything else loads (this
module and pyinspect/cli/flags.py import only what the interpreter has loaded already): the
reader is the command's critical path from its spawn to its end.
"""

from __future__ import annotations

import gc
import os
import sys

from pyinspect.cli.flags import OFFLINE_FLAG, dump_to_open

TYPE_CHECKING = False  # typing is not imported before the reader's spawn
if TYPE_CHECKING:
    from typing import Any

    from pyinspect.cli.root import build_app as build_app  # loaded by __getattr__

_AREAS = ("heap", "triage", "diagnose", "trace", "dap", "serve", "ps")
# The area that registers each top-level command: a command line that names one builds that
# area alone (tests/unit/test_cli_grammar.py checks it against what each area registers).
_AREA_OF = {"threads": "triage", "locks": "triage", "async": "triage", "exceptions": "triage",
            "threadpool": "triage", "heap": "heap", "diagnose": "diagnose", "trace": "trace", "dap": "dap",
            "serve": "serve", "ps": "ps"}
_HELP = "pyinspect: a memory-level debugger for .NET processes."


def _start_dump_reader_early(argv: list[str]) -> None:
    """A command that reads a dump (--dump): its reader process starts, reads and opens the
    dump (with --dac and --offline as given) while this one loads the command line; the
    command's own open takes that process when it asks for the same (pyinspect.heap.dump_child)."""
    found = dump_to_open(argv)
    if found is not None:
        from pyinspect.session.dump_reader import start_dump_reader_early

        start_dump_reader_early(*found, True if OFFLINE_FLAG in argv[1:] else None)


def _command_named(argv: list[str]) -> str | None:
    """The top-level command a command line names (its first word after the group's --offline)."""
    return next((arg for arg in argv[1:] if arg != OFFLINE_FLAG), None)


def _areas_for(argv: list[str]) -> tuple[str, ...]:
    """The areas a command line needs: the one that registers the command it names, else
    every area (the top-level help, an unknown command, its suggestions)."""
    area = _AREA_OF.get(_command_named(argv) or "")
    return (area,) if area is not None and "--help" not in argv[1:2] else _AREAS


def main() -> None:
    gc.disable()  # until the command line is parsed (pyinspect.cli.root)
    # Plain help and errors unless the user asks for typer's rich ones: rich's help
    # formatting (markdown, tracebacks) was most of `pyinspect --help`'s time.
    os.environ.setdefault("TYPER_USE_RICH", "0")
    serving = _command_named(sys.argv) == "serve"
    if serving and not {"--http", "--help", "-h"} & set(sys.argv[2:]):
        from pyinspect.server.stdio_wire import claim_stdio

        claim_stdio()  # stdout now writes to stderr, stdin reads nothing: the wire is the SDK's alone
    if not serving:
        # pyinspect uses no pydantic plugin: a one-shot command need not look for one in every
        # installed package's metadata (entry points) before its first model
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
        _start_dump_reader_early(sys.argv)
    from pyinspect.cli.root import build_app as build_app  # loaded by __getattr__

    app = build_app(_areas_for(sys.argv))
    if serving:
        app()
        return
    from pyinspect.cli.grammar import finish

    try:
        app()
    except SystemExit as exc:  # click ends every command this way, its status in code
        finish(exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1))


def __getattr__(name: str) -> Any:
    """``from pyinspect.cli import app`` (tests, embedding): every area, built once; and build_app
    (pyinspect.cli.root, loaded when asked for)."""
    from pyinspect.cli.root import build_app as build_app  # loaded by __getattr__

    if name == "build_app":
        return build_app
    if name == "app":
        built = build_app()
        globals()["app"] = built
        return built
    raise AttributeError(f"module 'pyinspect.cli' has no attribute {name!r}")
