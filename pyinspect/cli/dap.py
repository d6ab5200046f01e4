"""`pyinspect dap`: our DAP debug adapter on stdio, for editors and any DAP client."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from pyinspect.cli.grammar import one_shot
from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool


def register(app: typer.Typer) -> None:
    app.command("dap")(dap)


def dap(
    log: Annotated[str | None, typer.Option("--log", help="append the adapter's diagnostics to FILE")] = None,
    interpreter: Annotated[str, typer.Option("--interpreter", help="accepted for netcoredbg compatibility")] = "vscode",
) -> None:
    """Run the debug adapter, speaking the Debug Adapter Protocol on stdin/stdout."""
    if interpreter != "vscode":
        typer.echo(f"error: only --interpreter=vscode is spoken, not {interpreter!r}", err=True)
        raise typer.Exit(2)
    host, adapter = one_shot(lambda: (dotnet_host(), dotnet_tool("PyInspect.Debugger")))
    args = [str(host), str(adapter), *(["--log", log] if log else [])]
    sys.stdout.flush()
    os.execv(args[0], args)  # the adapter owns stdio from here on
