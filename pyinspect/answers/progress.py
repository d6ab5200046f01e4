"""A tqdm bar that follows a heap walk, shared by the notebook and the command line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pyinspect.heap.reader import ProgressCallback

__all__ = ["walk_progress"]


@contextmanager
def walk_progress(*, notebook: bool = False, **options: Any) -> Iterator[ProgressCallback]:
    """Yield a callback for HeapReader.stats that moves a bytes-walked bar; the bar
    clears itself when the walk ends. ``notebook`` picks tqdm.auto's widget."""
    if notebook:
        from tqdm.auto import tqdm  # type: ignore[import-untyped]
    else:
        from tqdm import tqdm  # type: ignore[import-untyped]

    with tqdm(total=0, unit="B", unit_scale=True, desc="heap walk", leave=False, **options) as bar:
        def advance(walked: int, total: int) -> None:
            bar.total = total
            bar.update(walked - bar.n)

        yield advance
