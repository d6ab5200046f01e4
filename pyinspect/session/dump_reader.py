"""Starting a dump's reader process before it is asked for, for a face that knows a dump is
coming (a one-shot command with --dump): the faces never import pyinspect.heap themselves,
and this module imports nothing until it is called, so the start stays first thing."""

from __future__ import annotations

__all__ = ["start_dump_reader_early"]


def start_dump_reader_early(path: str, dac: str | None = None, offline: bool | None = None) -> None:
    """The dump reader's child starts and opens the dump at path (with its DAC as dac and
    offline say) while the caller loads the rest (pyinspect.heap.dump_child.start_early); the
    next dump opened takes it when it is the same dump with the same DAC options."""
    from pyinspect.heap.reader_spawn import spawn_reader

    started = spawn_reader(path)  # first, before the rest of the reading side loads
    from pyinspect.heap.dump_child import start_early

    start_early(path, dac, offline, started)
