"""A tqdm bar that follows a heap walk, apart from the heap engine's other names
(pyinspect.session.heap_terms): `heap stats` builds no graph, and its progress loads none of
the graph's modules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyinspect.heap.stepping import ProgressCallback

__all__ = ["bar_progress"]


def bar_progress(bar: Any) -> ProgressCallback:
    """The callback by which a tqdm bar (the command line's on stderr, the notebook's widget)
    follows a heap walk: bytes walked, then, the walk done, the graph's phase under way named
    in its description."""

    def advance(walked: int, total: int, phase: str | None = None) -> None:
        bar.total = total
        bar.update(walked - bar.n)
        if phase is not None:
            bar.set_description_str(f"heap graph: {phase}")

    return advance
