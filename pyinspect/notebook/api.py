"""Notebook face: ``pyinspect.launch(program)`` / ``pyinspect.attach(pid)`` -> :class:`Debugger`
(a debug session: breakpoints, stack and locals as DataFrames; see pyinspect/notebook/debugger.py);
``pyinspect.open_heap(pid)`` / ``pyinspect.open_dump(path)`` -> :class:`Heap`.

    heap = pyinspect.open_heap(1234)
    heap.stats().head(10)          # pandas DataFrame: type, count, total_size
    heap.object("0x7f...", depth=2) # HeapObject (offsets from the object's address)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pyinspect.models.heap import HeapField, HeapObject
from pyinspect.models.heap_answers import DumpCreateAnswer
from pyinspect.notebook.closing import ClosesOnExit
from pyinspect.notebook.debugger import BreakpointSpec, Debugger, launch, start_attached
from pyinspect.notebook.diagnose import DiagnoseMethods, diagnose
from pyinspect.notebook.heap_graph import diff
from pyinspect.notebook.progress import walk_progress
from pyinspect.notebook.triage import TriageMethods
from pyinspect.session import heap_queries as queries
from pyinspect.session.dump_writing import write_dump
from pyinspect.session.heap_workspace import HeapWorkspace

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["Debugger", "Heap", "attach", "create_dump", "diagnose", "diff", "launch", "open_dump",
           "open_heap"]


class Heap(DiagnoseMethods, TriageMethods, ClosesOnExit):
    """A heap to explore interactively; long walks show a tqdm progress bar. Its heap, graph
    and flushes belong to a HeapWorkspace (the one the MCP tools and the command line use)."""

    def __init__(self, heaps: HeapWorkspace, from_dump: bool = False) -> None:
        self.heaps = heaps
        self.from_dump = from_dump
        self._description = heaps.reader()[0].description

    def stats(self, progress: bool = True, live: bool | None = None) -> pd.DataFrame:
        """Count and total size per type (columns type, count, total_size), largest first;
        live=True only objects reachable from roots, live=False only dead ones (heap graph);
        ``attrs["completeness"]`` says whether the walk read the whole heap.
        Raises HeapReadError, DumpDamagedError. Example: ``heap.stats().head(10)``"""
        import pandas as pd

        if live is not None:
            answer = queries.stats_answer(*self._graph_and_source(progress=progress), "live" if live else "dead", None)
            rows, completeness = answer.types, answer.completeness
        else:
            with walk_progress(progress) as advance:
                stats = self.reader.stats(advance)
            rows, completeness = stats, stats.completeness  # type: ignore[assignment]
        frame = pd.DataFrame([(r.type, r.count, r.total_size) for r in rows], columns=["type", "count", "total_size"])
        frame.attrs["completeness"] = completeness
        return frame

    def object(self, address: int | str, depth: int = 1) -> HeapObject:
        """One object at an address (int or "0x..."): type, size, fields with offsets from
        its address, references expanded to depth (1-10). Raises HeapReadError,
        DepthExceededError. Example: ``heap.object("0x7f3a10", depth=2).field("Id")``"""
        return self.reader.object(address, depth)

    def string(self, address: int | str) -> str:
        """The text of the System.String at an address. Raises HeapReadError.
        Example: ``heap.string(0x7f3a10)``"""
        return self.reader.read_string(address)

    def array(self, address: int | str, start: int = 0, count: int = 100) -> list[HeapField]:
        """Elements [start, start+count) of the array at an address, offsets from the array.
        Raises HeapReadError. Example: ``heap.array("0x7f3a10", 0, 10)``"""
        return self.reader.array_elements(address, start, count)

    def statics(self, type_name: str) -> list[HeapField]:
        """Static fields of a loaded type (``address`` is the referenced object, if any).
        Raises HeapReadError. Example: ``heap.statics("App.Cache")``"""
        return self.reader.statics(type_name)

    def flush(self) -> None:
        """Forget cached memory and the graph: call after the live process ran.
        Example: ``heap.flush()``"""
        self.heaps.flush()

    def close(self) -> None:
        """Release the target (a suspended process resumes); idempotent."""
        self.heaps.close()

    def __repr__(self) -> str:
        return f"<pyinspect.Heap of {self._description}>"


def open_heap(pid: int, *, suspend: bool = False) -> Heap:
    """Read a live .NET process's heap through ClrMD, without stopping it unless suspend=True
    (then it stays frozen until close()).

    Returns a Heap (use it in ``with``). Raises ProcessNotFoundError, SetupMissingError
    (the target's runtime has no DAC). Example:
    ``with pyinspect.open_heap(1234) as heap: heap.stats().head(10)``"""
    heaps = HeapWorkspace()
    heaps.attach(pid, suspend=suspend)
    return Heap(heaps)


def open_dump(path: str | Path, *, dac: str | Path | None = None, offline: bool | None = None) -> Heap:
    """Read the heap of a core dump written by createdump, with the DAC of the dump's runtime
    build: ``dac`` when given, else the first that matches beside the dump (``<dump>.dac/``),
    in the runtime folder it records or an installed runtime, under
    $PYINSPECT_DAC_SEARCH_PATH, in the NuGet packages folder's runtime pack, on a symbol
    server ($_NT_SYMBOL_PATH) or a NuGet feed; ``offline=True`` (default $PYINSPECT_OFFLINE)
    asks no server.

    Returns a Heap. Raises DumpError naming the build and every place tried when none matches.
    Example: ``heap = pyinspect.open_dump("core.1234"); heap.stats()``"""
    heaps = HeapWorkspace()
    heaps.open_dump(path, offline=offline, dac=dac)
    return Heap(heaps, from_dump=True)


def create_dump(pid: int, path: str | Path) -> DumpCreateAnswer:
    """Write a full-heap core dump of a running .NET process with its runtime's createdump,
    its DAC kept beside it in ``<path>.dac/`` (``kept_beside``) so the dump opens anywhere.

    Returns a DumpCreateAnswer (path, pid, size_bytes, kept_beside). Raises DumpError,
    ProcessNotFoundError. Example: ``pyinspect.create_dump(1234, "/tmp/core.1234")``"""
    return write_dump(pid, Path(path).expanduser().absolute())


def attach(pid: int, *, breakpoints: Iterable[BreakpointSpec] = (), adapter: str = "pyinspect") -> Debugger:
    """Attach the debugger to a running .NET process (debug_attach); it keeps running until
    ``pause()`` or a breakpoint.

    Args: pid, breakpoints [(file, line)...], adapter ("pyinspect" or "netcoredbg").
    Returns a Debugger. Raises ProcessNotFoundError, AdapterError.
    Example: ``dbg = pyinspect.attach(1234); dbg.pause(); dbg.stack()``"""
    return start_attached(pid, breakpoints, adapter)
