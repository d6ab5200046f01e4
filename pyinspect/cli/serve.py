"""`pyinspect serve`: the MCP server for AI agents, on stdio (default) or streamable HTTP."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    http: Annotated[bool, typer.Option("--http", help="serve streamable HTTP on 127.0.0.1 instead of stdio")] = False,
    port: Annotated[int, typer.Option("--port", help="HTTP port (with --http)")] = 8765,
    adapter: Annotated[str, typer.Option("--adapter", help="debug adapter: pyinspect (ours) or netcoredbg")]
    = "pyinspect",
) -> None:
    """Run the MCP server whose tools drive a debug session (debug_*, breakpoint_*, inspection)."""
    if adapter not in ("pyinspect", "netcoredbg"):
        typer.echo(f"error: --adapter must be pyinspect or netcoredbg, not {adapter!r}", err=True)
        raise typer.Exit(2)
    if not 0 < port < 65536:
        typer.echo(f"error: --port must be 1-65535, not {port}", err=True)
        raise typer.Exit(2)
    from pyinspect.server.app import run_server  # the MCP SDK loads only for this command

    run_server(http=http, port=port, adapter=adapter)
