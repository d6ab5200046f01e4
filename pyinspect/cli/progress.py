"""A tqdm bar on stderr that follows a heap walk: the command line's progress."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from pyinspect.session.progress_bar import bar_progress

if TYPE_CHECKING:
    from pyinspect.session.heap_terms import ProgressCallback

__all__ = ["walk_progress"]


@contextmanager
def walk_progress() -> Iterator[ProgressCallback]:
    """Yield a callback for a heap walk that moves a bytes-walked bar on stderr; the bar
    names the graph's phases after the walk, and clears itself at the end."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    with tqdm(total=0, unit="B", unit_scale=True, desc="heap walk", leave=False, file=sys.stderr) as bar:
        yield bar_progress(bar)
