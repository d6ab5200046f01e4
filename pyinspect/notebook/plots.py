"""Plots of the heap graph's DataFrames, for an analyst who would rather look than read:
top types and top retainers (bar charts), generations and fragmentation, a diff's growth.

matplotlib is the optional ``plot`` extra (``pip install pyinspect[plot]``); each
function takes the DataFrame the notebook already gives (``heap.stats()``,
``heap.retained()``, ``heap.generations()``, ``pyinspect.diff(a, b)``) and answers the
matplotlib Axes it drew on (pass ``ax`` to draw into a figure of your own).

    from pyinspect.notebook.plots import plot_top_types, plot_diff_growth
    plot_top_types(heap.stats(live=True))
    plot_diff_growth(pyinspect.diff(before, after))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyinspect.errors import InvalidParameterError, SetupMissingError

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

__all__ = ["plot_diff_growth", "plot_gc_pauses", "plot_gc_timeline", "plot_generations", "plot_top_allocations",
           "plot_top_retainers", "plot_top_types"]

_MIB = 1024 * 1024


def _axes(ax: Any | None, rows: int) -> Any:
    """The given Axes, else a new figure tall enough for `rows` bars."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise SetupMissingError("plots need matplotlib: pip install 'pyinspect[plot]'") from exc
    if ax is not None:
        return ax
    _, created = plt.subplots(figsize=(9, max(2.5, 0.35 * rows + 1.2)))
    return created


def _require(frame: pd.DataFrame, *columns: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InvalidParameterError(f"the DataFrame has no column {', '.join(missing)} "
                                    f"(it has {', '.join(map(str, frame.columns)) or 'none'})")


def _short(type_name: str, width: int = 60) -> str:
    return type_name if len(type_name) <= width else "…" + type_name[-(width - 1):]


def plot_top_types(stats: pd.DataFrame, top: int = 15, by: str = "total_size", ax: Any | None = None) -> Any:
    """Horizontal bars of the `top` types by `by` (total_size, count, retained_size) in MiB
    or objects, largest at the top; from heap.stats() or heap.retained(by_type=True)."""
    _require(stats, "type", by)
    rows = stats.nlargest(top, by).iloc[::-1]
    ax = _axes(ax, len(rows))
    sizes = by != "count"
    ax.barh([_short(t) for t in rows["type"]], rows[by] / (_MIB if sizes else 1), color="#4c72b0")
    ax.set_xlabel(f"{by.replace('_', ' ')} ({'MiB' if sizes else 'objects'})")
    ax.set_title(f"Top {len(rows)} types by {by.replace('_', ' ')}")
    return ax


def plot_top_retainers(retained: pd.DataFrame, top: int = 15, ax: Any | None = None) -> Any:
    """Horizontal bars of the objects that keep the most memory alive (retained_size in
    MiB), labelled type @ address; from heap.retained()."""
    _require(retained, "type", "address", "retained_size")
    rows = retained.nlargest(top, "retained_size").iloc[::-1]
    ax = _axes(ax, len(rows))
    labels = [f"{_short(t, 45)} @ {a}" for t, a in zip(rows["type"], rows["address"], strict=True)]
    ax.barh(labels, rows["retained_size"] / _MIB, color="#dd8452")
    ax.set_xlabel("retained size (MiB)")
    ax.set_title(f"Top {len(rows)} retainers")
    return ax


def plot_generations(generations: pd.DataFrame, ax: Any | None = None) -> Any:
    """Per generation (gen0-2, LOH, POH): bytes in objects and free bytes stacked, the
    fragmentation (free / size) written above each bar; from heap.generations()."""
    _require(generations, "generation", "size", "free_bytes", "fragmentation")
    ax = _axes(ax, 6)
    names = list(generations["generation"])
    used = (generations["size"] - generations["free_bytes"]) / _MIB
    free = generations["free_bytes"] / _MIB
    ax.bar(names, used, label="objects", color="#4c72b0")
    ax.bar(names, free, bottom=used, label="free (fragmentation)", color="#c44e52")
    for i, (total, fragmentation) in enumerate(zip(used + free, generations["fragmentation"], strict=True)):
        ax.annotate(f"{fragmentation:.0%}", (i, total), ha="center", va="bottom", fontsize=8)
    ax.set_ylabel("MiB")
    ax.set_title("Generations: size and fragmentation")
    ax.legend()
    return ax


def plot_diff_growth(changes: pd.DataFrame, top: int = 15, ax: Any | None = None) -> Any:
    """What grew between two snapshots: the `top` types by size_delta (KiB), growth in red
    and shrinkage in green, each bar labelled with its count delta; from pyinspect.diff()."""
    _require(changes, "type", "size_delta", "count_delta")
    rows = changes.reindex(changes["size_delta"].abs().sort_values(ascending=False).index).head(top).iloc[::-1]
    ax = _axes(ax, len(rows))
    colors = ["#c44e52" if d > 0 else "#55a868" for d in rows["size_delta"]]
    bars = ax.barh([_short(t) for t in rows["type"]], rows["size_delta"] / 1024, color=colors)
    for bar, count in zip(bars, rows["count_delta"], strict=True):
        ax.annotate(f"{count:+,}", (bar.get_width(), bar.get_y() + bar.get_height() / 2), va="center",
                    ha="left" if bar.get_width() >= 0 else "right", fontsize=8)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("size change (KiB); labels: count change")
    ax.set_title("Heap growth between snapshots")
    return ax


# ---- recordings (pyinspect.record / dbg.record) -------------------------------------------

_GEN_COLORS = {"gen0": "#4c72b0", "gen1": "#55a868", "gen2": "#c44e52", "loh": "#8172b2", "poh": "#ccb974"}


def plot_gc_timeline(gcs: pd.DataFrame, ax: Any | None = None) -> Any:
    """Heap size per generation after each GC over the window (stacked, MiB), each GC
    marked by a line coloured by its generation; from rec.gcs()."""
    _require(gcs, "start_ms", "generation", *(f"{g}_after" for g in _GEN_COLORS))
    ax = _axes(ax, 10)
    seconds = gcs["start_ms"] / 1000
    ax.stackplot(seconds, *(gcs[f"{g}_after"].fillna(0) / _MIB for g in _GEN_COLORS),
                 labels=list(_GEN_COLORS), colors=list(_GEN_COLORS.values()), alpha=0.8, step="post")
    marks = {0: "#4c72b0", 1: "#55a868", 2: "#c44e52"}
    for at, generation in zip(seconds, gcs["generation"], strict=True):
        ax.axvline(at, color=marks.get(int(generation), "black"), linewidth=0.6, linestyle=":")
    ax.set_xlabel("seconds into the recording (dotted: a GC, coloured by generation)")
    ax.set_ylabel("MiB after the GC")
    ax.set_title(f"Heap size per generation, {len(gcs)} GCs")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def plot_gc_pauses(gcs: pd.DataFrame, bins: int = 20, ax: Any | None = None) -> Any:
    """Histogram of the GC pauses (ms) of the window, one colour per generation; from rec.gcs()."""
    _require(gcs, "pause_ms", "generation")
    ax = _axes(ax, 8)
    groups = [(f"gen{g}", gcs.loc[gcs["generation"] == g, "pause_ms"]) for g in sorted(gcs["generation"].unique())]
    ax.hist([values for _, values in groups], bins=bins, stacked=True, label=[name for name, _ in groups],
            color=[_GEN_COLORS.get(name, "gray") for name, _ in groups])
    ax.set_xlabel("pause (ms)")
    ax.set_ylabel("GCs")
    ax.set_title(f"GC pauses: {len(gcs)} GCs, {gcs['pause_ms'].sum():.1f} ms in total")
    ax.legend()
    return ax


def plot_top_allocations(allocations: pd.DataFrame, top: int = 10, ax: Any | None = None) -> Any:
    """Horizontal bars of the `top` allocated types (estimated MiB), each labelled with its
    top allocating method and that stack's share; from rec.allocations()."""
    _require(allocations, "type", "estimated_bytes", "top_method", "top_share")
    rows = allocations.nlargest(top, "estimated_bytes").iloc[::-1]
    ax = _axes(ax, len(rows))
    ax.barh([_short(t, 45) for t in rows["type"]], rows["estimated_bytes"] / _MIB, color="#dd8452")
    for i, (size, method, share) in enumerate(zip(rows["estimated_bytes"] / _MIB, rows["top_method"],
                                                  rows["top_share"], strict=True)):
        if isinstance(method, str):
            ax.annotate(f" {_short(method, 50)} ({share:.0%})", (size, i), va="center", fontsize=7)
    ax.set_xlabel("estimated MiB allocated in the window")
    ax.set_title(f"Top {len(rows)} allocating types and their top stacks")
    return ax
