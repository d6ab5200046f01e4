"""Reading a damaged dump again without the step the DAC faulted in.

The helper announces the steps that may be left out (a module's static roots, a thread's
stack; ReadSteps in the helper) as it starts each; when the DAC ends the dump reader's
process in one of them, DUMP_DAMAGED names it (``last_step``). Read again naming it, the
helper skips it and the answer's completeness says so: a heap graph without one module's
statics is still an answer, where SOS would have gone down with the DAC.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pyinspect.errors import DumpDamagedError

__all__ = ["MAX_SKIPPED", "leaving_out"]

T = TypeVar("T")
MAX_SKIPPED = 8
_SKIPPABLE = ("static roots of module ", "stack roots of OS thread ", "stack of OS thread ", "handle roots",
              "finalizer roots")


def leaving_out(read: Callable[[str], T]) -> T:
    """read(skip), skip naming the steps to leave out one a line: again, each time without
    the step a fault ended the reader in, at most MAX_SKIPPED times; any other fault is raised."""
    skipped: list[str] = []
    while True:
        try:
            return read("\n".join(skipped))
        except DumpDamagedError as exc:
            step = exc.context.get("last_step")
            if not isinstance(step, str) or not step.startswith(_SKIPPABLE) or step in skipped \
                    or len(skipped) >= MAX_SKIPPED:
                raise
            skipped.append(step)
