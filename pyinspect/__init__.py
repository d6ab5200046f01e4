"""pyinspect: a memory-level debugger for .NET processes.

Two engines under one session: a DAP client driving a .NET debug adapter (ours by
default, netcoredbg when asked) and a heap reader over ClrMD through pythonnet.
Notebook entry points: ``pyinspect.attach(pid)`` and ``pyinspect.open_dump(path)`` (the
heap); ``pyinspect.launch(program)`` and ``pyinspect.debug_attach(pid)`` (a debug session).
Heavy modules (pythonnet, pandas) load lazily, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyinspect.errors import ErrorCode, PyInspectError

if TYPE_CHECKING:
    from pyinspect.api import Debugger, attach, debug_attach, diff, launch, open_dump

__all__ = ["Debugger", "ErrorCode", "PyInspectError", "attach", "debug_attach", "diff", "launch", "open_dump"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in ("Debugger", "attach", "debug_attach", "diff", "launch", "open_dump"):
        from pyinspect import api

        return getattr(api, name)
    raise AttributeError(f"module 'pyinspect' has no attribute {name!r}")
