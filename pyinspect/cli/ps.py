"""`pyinspect ps`: the machine's .NET processes, to find the pid for attach."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from pyinspect.models.runtimes import DotnetProcess
from pyinspect.targets.processes import list_dotnet_processes

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    app.command("ps")(ps)


def ps(as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")] = False) -> None:
    """List .NET processes: pid, runtime version, self-contained or not, pid inside and
    container id for a process in a container, and whether
    pyinspect can debug them and read their heap (and why not)."""
    processes = list_dotnet_processes()
    if as_json:
        print(json.dumps([p.model_dump(by_alias=True) for p in processes], indent=2, ensure_ascii=False))
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
