"""Ending a one-shot command as soon as its answer is written.

A command that opened a dump through ClrMD and pythonnet spent seconds in interpreter
shutdown (pythonnet finalizes the .NET runtime and every object it still tracks) after the
answer was out. A one-shot command has nothing left to clean up once its output is flushed
(readers are closed and a frozen process released inside the command), so the `pyinspect`
entry point leaves through os._exit. Commands run inside another program (typer's
CliRunner in tests, an embedding) return normally: only the entry point calls finish.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

__all__ = ["finish"]


def finish(status: int) -> NoReturn:
    """Flush stdout and stderr, then exit the process at once with status."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
