"""The `pyinspect` command line: one sub-application per area.

    pyinspect heap ...   read a live process's heap or a dump (pyinspect/cli/heap.py)
    pyinspect dap        run our DAP debug adapter on stdio (pyinspect/cli/dap.py)
    pyinspect serve      the MCP server for AI agents (pyinspect/cli/serve.py)
    pyinspect ps         the machine's .NET processes (pyinspect/cli/ps.py)

Each area module defines `register(app)`; add a new area's module to `_AREAS`.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="pyinspect: a memory-level debugger for .NET processes.",
)

_AREAS = ("heap", "dap", "serve", "ps")

for _area in _AREAS:
    importlib.import_module(f"pyinspect.cli.{_area}").register(app)


def main() -> None:
    app()
