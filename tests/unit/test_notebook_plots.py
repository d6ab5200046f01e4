"""The notebook's plots draw what their DataFrames say: one bar per row asked for, the
largest first from the top, sizes in the unit on the axis, growth red and shrinkage green."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # type: ignore[import-untyped]
import pytest

from pyinspect.errors import InvalidParameterError
from pyinspect.notebook.plots import (
    plot_diff_growth,
    plot_generations,
    plot_top_retainers,
    plot_top_types,
)

MIB = 1024 * 1024


def _bars(ax: object) -> list[tuple[str, float]]:
    labels = [t.get_text() for t in ax.get_yticklabels()]  # type: ignore[attr-defined]
    return list(zip(labels, [p.get_width() for p in ax.patches], strict=True))  # type: ignore[attr-defined]


def test_top_types_are_the_largest_in_mib_largest_on_top() -> None:
    stats = pd.DataFrame({"type": ["A", "B", "C", "D"], "count": [1, 5, 2, 9],
                          "total_size": [3 * MIB, 1 * MIB, 8 * MIB, 2 * MIB]})
    ax = plot_top_types(stats, top=3)
    assert _bars(ax) == [("D", 2.0), ("A", 3.0), ("C", 8.0)]  # barh draws bottom-up
    assert plot_top_types(stats, top=2, by="count").patches[-1].get_width() == 9


def test_top_retainers_are_labelled_type_at_address() -> None:
    retained = pd.DataFrame({"address": ["0x10", "0x20"], "type": ["Cache", "List"],
                             "retained_size": [4 * MIB, 6 * MIB]})
    assert _bars(plot_top_retainers(retained)) == [("Cache @ 0x10", 4.0), ("List @ 0x20", 6.0)]


def test_generations_stack_objects_and_free_bytes() -> None:
    generations = pd.DataFrame({"generation": ["gen0", "loh"], "size": [4 * MIB, 2 * MIB],
                                "free_bytes": [1 * MIB, 0], "fragmentation": [0.25, 0.0]})
    ax = plot_generations(generations)
    assert [p.get_height() for p in ax.patches] == [3.0, 2.0, 1.0, 0.0]
    assert [t.get_text() for t in ax.texts] == ["25%", "0%"]


def test_diff_growth_orders_by_size_change_and_colours_its_sign() -> None:
    changes = pd.DataFrame({"type": ["Grew", "Shrank", "Same"], "count_delta": [100, -3, 1],
                            "size_delta": [10240, -2048, 1024], "retained_delta": [0, 0, 0]})
    ax = plot_diff_growth(changes, top=2)
    assert _bars(ax) == [("Shrank", -2.0), ("Grew", 10.0)]
    assert [p.get_facecolor()[:3] for p in ax.patches] == [matplotlib.colors.to_rgb("#55a868"),
                                                           matplotlib.colors.to_rgb("#c44e52")]
    assert [t.get_text() for t in ax.texts] == ["-3", "+100"]


def test_a_frame_without_the_columns_is_a_clear_error() -> None:
    with pytest.raises(InvalidParameterError, match="no column total_size"):
        plot_top_types(pd.DataFrame({"type": ["A"]}))
