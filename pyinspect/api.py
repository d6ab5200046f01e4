"""Notebook face: ``pyinspect.attach(pid)`` / ``pyinspect.open_dump(path)`` -> :class:`Heap`;
``pyinspect.launch(program)`` / ``pyinspect.debug_attach(pid)`` -> :class:`Debugger`
(a debug session: breakpoints, stack and locals as DataFrames; see pyinspect/debugger.py).

    heap = pyinspect.attach(1234)
    heap.stats().head(10)          # pandas DataFrame: type, count, total_size
    heap.object("0x7f...", depth=2) # HeapObject (offsets from the object's address)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pyinspect.closing import ClosesOnExit
from pyinspect.debugger import Debugger, debug_attach, launch
from pyinspect.heap.reader import HeapReader
from pyinspect.models.heap import HeapField, HeapObject
from pyinspect.notebook_graph import GraphMethods, diff
from pyinspect.progress import walk_progress

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["Debugger", "Heap", "attach", "debug_attach", "diff", "launch", "open_dump"]


class Heap(GraphMethods, ClosesOnExit):
    """A heap to explore interactively; long walks show a tqdm progress bar."""

    def __init__(self, reader: HeapReader) -> None:
        self.reader = reader

    def stats(self, progress: bool = True, live: bool | None = None) -> pd.DataFrame:
        """Count and total size per type (columns type, count, total_size), largest first;
        live=True only objects reachable from roots, live=False only dead ones (heap graph)."""
        import pandas as pd

        if live is not None:
            rows = self.graph(progress=progress).stats("live" if live else "dead")
        else:
            with walk_progress(notebook=True, disable=not progress) as advance:
                rows = self.reader.stats(advance)  # type: ignore[assignment]
        return pd.DataFrame(
            [(r.type, r.count, r.total_size) for r in rows],
            columns=["type", "count", "total_size"],
        )

    def object(self, address: int | str, depth: int = 1) -> HeapObject:
        return self.reader.object(address, depth)

    def string(self, address: int | str) -> str:
        return self.reader.read_string(address)

    def array(self, address: int | str, start: int = 0, count: int = 100) -> list[HeapField]:
        return self.reader.array_elements(address, start, count)

    def statics(self, type_name: str) -> list[HeapField]:
        return self.reader.statics(type_name)

    def flush(self) -> None:
        self._forget_graph()
        self.reader.flush()

    def close(self) -> None:
        self.reader.close()

    def __repr__(self) -> str:
        return f"<pyinspect.Heap of {self.reader.description}>"


def attach(pid: int, *, suspend: bool = False) -> Heap:
    """Read a live .NET process's heap (without stopping it unless suspend=True)."""
    return Heap(HeapReader.attach(pid, suspend=suspend))


def open_dump(path: str | Path, *, dac: str | Path | None = None) -> Heap:
    """Read the heap of a core dump written by createdump, with the DAC of the dump's runtime
    build: ``dac`` when given, else the one the dump records, an installed runtime's, or one
    under $PYINSPECT_DAC_SEARCH_PATH. Raises DumpError naming the build when none matches."""
    return Heap(HeapReader.open_dump(path, dac=dac))
