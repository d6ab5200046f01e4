"""A tqdm.auto bar (a widget in Jupyter) that follows a heap walk: the notebook's progress."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pyinspect.session.heap_terms import ProgressCallback
from pyinspect.session.progress_bar import bar_progress

__all__ = ["walk_progress"]


@contextmanager
def walk_progress(show: bool = True) -> Iterator[ProgressCallback]:
    """Yield a callback for a heap walk that moves a bytes-walked bar (none unless show);
    the bar names the graph's phases after the walk, and clears itself at the end."""
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    with tqdm(total=0, unit="B", unit_scale=True, desc="heap walk", leave=False, disable=not show) as bar:
        yield bar_progress(bar)
