"""pyinspect: a memory-level debugger for .NET processes.

Two engines under one session: a DAP client driving a .NET debug adapter (ours by
default, netcoredbg when asked) and a heap reader over ClrMD through pythonnet.

Notebook entry points:

- ``pyinspect.launch(program)`` / ``pyinspect.attach(pid)`` -> :class:`Debugger`
  (breakpoints, stepping, stack and locals as DataFrames, evaluation, heap reads);
- ``pyinspect.open_heap(pid)`` / ``pyinspect.open_dump(path)`` -> :class:`Heap`
  (statistics, objects, the heap graph); ``pyinspect.diff(a, b)`` of two snapshots;
  ``pyinspect.create_dump(pid, path)`` writes a dump with its runtime's DAC beside it;
- ``pyinspect.diagnose(pid | dump path)`` -> DataFrame of findings (what is wrong, with evidence);
- ``pyinspect.record(pid)`` / ``dbg.record()`` -> :class:`Recording` (allocations with
  their stacks, GCs and counters over time, as DataFrames).

Heavy modules (pythonnet, pandas) load lazily, on first use.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing, like every import here, loads when a name is first used
if TYPE_CHECKING:
    from typing import Any

    from pyinspect.errors import ErrorCode, PyInspectError
    from pyinspect.notebook.api import (
        Debugger,
        Heap,
        attach,
        create_dump,
        diagnose,
        diff,
        launch,
        open_dump,
        open_heap,
    )
    from pyinspect.notebook.recording import Recording, record
    from pyinspect.notebook.values import EvalResult

__all__ = ["Debugger", "ErrorCode", "EvalResult", "Heap", "PyInspectError", "Recording", "attach", "create_dump",
           "diagnose", "diff", "launch", "open_dump", "open_heap", "record"]
__version__ = "0.1.0"

# What each public name is imported from, when first used: a one-shot command starts its dump
# reader before typing or the errors (enum) load (pyinspect.cli.main).
_LAZY = {**dict.fromkeys(["ErrorCode", "PyInspectError"], "pyinspect.errors"),
         **dict.fromkeys(["Debugger", "Heap", "attach", "create_dump", "diagnose", "diff", "launch", "open_dump",
                          "open_heap"],
                         "pyinspect.notebook.api"),
         "EvalResult": "pyinspect.notebook.values",
         **dict.fromkeys(["Recording", "record"], "pyinspect.notebook.recording")}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pyinspect' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, which load lazily, are listed too."""
    return sorted(set(globals()) | set(__all__))
