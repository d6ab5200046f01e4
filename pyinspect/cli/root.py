"""The command line's root group, with the areas asked for registered (pyinspect.cli: main
builds it once the dump's reader has been started, which is why this is a module of its own:
typing's Annotated, which typer reads the group's option from, loads with it)."""

from __future__ import annotations

import gc
import importlib
import os
from typing import TYPE_CHECKING, Annotated, Any

from pyinspect.cli import _AREAS, _HELP
from pyinspect.cli.flags import OFFLINE_FLAG

if TYPE_CHECKING:
    import typer

__all__ = ["build_app"]


def build_app(areas: tuple[str, ...] = _AREAS) -> typer.Typer:
    """The command line with the given areas registered."""
    import typer

    built = typer.Typer(no_args_is_help=True, add_completion=False, help=_HELP)
    built.callback()(_group)  # a group even with one area: `pyinspect serve` keeps its name
    for area in areas:
        importlib.import_module(f"pyinspect.cli.{area}").register(built)
    return built


def _group(offline: Annotated[bool, _offline_option()] = False) -> None:
    """pyinspect: a memory-level debugger for .NET processes."""
    _collect_garbage_again()
    if offline:
        from pyinspect.targets.dac_sources import OFFLINE_VARIABLE

        os.environ[OFFLINE_VARIABLE] = "1"  # read wherever a dump's DAC is looked for, child processes too


def _offline_option() -> Any:
    import typer

    return typer.Option(OFFLINE_FLAG, help="look for a dump's DAC on this machine only: no symbol server or NuGet "
                                          "feed is asked (also $PYINSPECT_OFFLINE=1)")


def _collect_garbage_again() -> None:
    """The cyclic garbage collector back on once the command line is parsed, with what the
    start loaded (modules, classes, the models' validators: kept for the process's life) left
    out of its scans (main turns it off: its passes over the objects of the imports were a
    twentieth of a one-shot command's CPU)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
