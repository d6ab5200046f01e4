"""pyinspect's MCP server (`pyinspect serve`): session tools, inspection tools, memory tools.

Nothing is imported here: `pyinspect serve` claims its stdio wire
(pyinspect.server.stdio_wire) before the MCP SDK loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyinspect.server.app import create_server, run_server

__all__ = ["create_server", "run_server"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pyinspect.server import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
