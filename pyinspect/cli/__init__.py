"""The `pyinspect` command line: one sub-application per area.

    pyinspect heap ...   read a live process's heap or a dump (pyinspect/cli/heap.py)
    pyinspect dap        run our DAP debug adapter on stdio (pyinspect/cli/dap.py)
    pyinspect serve      run the MCP server (pyinspect/cli/serve.py)
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help=__doc__)

# Each area module defines `register(app)`; a module not yet present is simply absent.
_AREAS = ("heap", "dap", "serve")


def _register_areas() -> None:
    for area in _AREAS:
        try:
            module = importlib.import_module(f"pyinspect.cli.{area}")
        except ModuleNotFoundError as exc:
            if exc.name != f"pyinspect.cli.{area}":
                raise
            continue
        module.register(app)


_register_areas()


def main() -> None:
    app()
