"""`pyinspect serve`: the MCP server for AI agents, on stdio (default) or streamable HTTP."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    http: Annotated[bool, typer.Option("--http", help="serve streamable HTTP on 127.0.0.1 (bearer token required) instead of stdio")] = False,
    port: Annotated[int, typer.Option("--port", help="HTTP port (with --http)")] = 8765,
    adapter: Annotated[str, typer.Option("--adapter", help="debug adapter: pyinspect (ours) or netcoredbg")]
    = "pyinspect",
    token_file: Annotated[str | None, typer.Option(
        "--token-file", help="with --http: read the bearer token from this file (else PYINSPECT_HTTP_TOKEN, "
        "else a random token printed once on stderr)")] = None,
    session_idle_timeout: Annotated[float, typer.Option(
        "--session-idle-timeout", help="with --http: end an MCP session (and close its debug session and heap) "
        "after this many seconds with no request")] = 300.0,
) -> None:
    """Run the MCP server whose tools drive a debug session (debug_*, breakpoint_*, inspection)."""
    if adapter not in ("pyinspect", "netcoredbg"):
        typer.echo(f"error: --adapter must be pyinspect or netcoredbg, not {adapter!r}", err=True)
        raise typer.Exit(2)
    if not 0 < port < 65536:
        typer.echo(f"error: --port must be 1-65535, not {port}", err=True)
        raise typer.Exit(2)
    if not 0 < session_idle_timeout < 7 * 24 * 3600:
        typer.echo(f"error: --session-idle-timeout must be a positive number of seconds, not {session_idle_timeout}",
                   err=True)
        raise typer.Exit(2)
    from pyinspect.server.app import run_server  # the MCP SDK loads only for this command
    from pyinspect.server.http_security import TokenError

    try:
        run_server(http=http, port=port, adapter=adapter, token_file=token_file, idle_timeout=session_idle_timeout)
    except TokenError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
