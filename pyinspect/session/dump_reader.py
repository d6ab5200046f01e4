"""Starting a dump's reader process before it is asked for, for a face that knows a dump is
coming (a one-shot command with --dump): the faces never import pyinspect.heap themselves,
and this module imports nothing until it is called, so the start stays first thing."""

from __future__ import annotations

__all__ = ["start_dump_reader_early"]


def start_dump_reader_early(dump: str, dac: str | None = None, offline: bool | None = None) -> None:
    """The dump reader's child starts and opens the dump named dump (as the command line gives
    it, with its DAC as dac and offline say) while the caller loads the rest
    (pyinspect.heap.dump_child.start_early); the next dump opened takes it when it is the same
    dump with the same DAC options."""
    import os

    from pyinspect.heap.reader_spawn import spawn_reader

    # first, before pathlib and the rest of the reading side load: the reader reads the file at
    # this path ahead, and opens it from that read when the path it is asked to open is this one
    started = spawn_reader(os.path.expanduser(dump))
    from pathlib import Path

    from pyinspect.heap.dump_child import start_early

    # the path as the command's own open spells it (pyinspect.session.heap_workspace)
    start_early(str(Path(dump).expanduser()), dac, offline, started)
