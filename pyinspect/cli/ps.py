"""`pyinspect ps`: the machine's .NET processes, to find the pid for attach."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pyinspect.cli.grammar import JsonOption, one_shot, print_json

if TYPE_CHECKING:

    from pyinspect.models.runtimes import DotnetProcess


__all__ = ["register"]


def register(app: typer.Typer) -> None:
    app.command("ps")(ps)


def ps(as_json: JsonOption = False) -> None:
    """List .NET processes: pid, runtime version, self-contained or not, pid inside and
    container id for a process in a container, and whether
    pyinspect can debug them and read their heap (and why not)."""
    from rich.console import Console
    from rich.table import Table

    from pyinspect.targets.processes import list_dotnet_processes

    processes = one_shot(list_dotnet_processes)
    if as_json:
        print_json(processes)
        return
    table = Table("pid", "runtime", "kind", "container", "debug", "heap", "command line / why not")
    for process in processes:
        runtime = process.runtime
        kind = "" if runtime is None else ("self-contained" if runtime.self_contained else "shared")
        detail = process.command_line + (f"\n[red]{process.reason}[/red]" if process.reason else "")
        table.add_row(str(process.pid), runtime.version if runtime else "several", kind, _container(process),
                      "yes" if process.can_debug else "no", "yes" if process.can_read_heap else "no", detail)
    Console().print(table)


def _container(process: DotnetProcess) -> str:
    """Its pid inside and short container id, for a process in other namespaces."""
    if not process.in_container:
        return ""
    short = f" {process.container_id[:12]}" if process.container_id else ""
    return f"pid {process.namespace_pid}{short}"
