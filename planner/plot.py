"""Gantt chart of windows on the nodes' time lines (Toporkov et al. 2011 Figs. 9–11).

Each node is one line: busy time (local tasks) is hatched grey, free slots
are outlined and numbered in list order, and the placements of each window
are filled in their job's colour and labelled with the window's name.
matplotlib is imported lazily: it is the optional extra ``planner[plot]``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from instances import Instance
from instances.text import plural
from planner.window import Window

PALETTE: tuple[str, ...] = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5",
    "#c49c94", "#f7b6d2", "#9edae5", "#dbdb8d", "#c7c7c7",
    "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
    "#6b6ecf", "#b5cf6b", "#e7ba52", "#d6616b", "#ce6dbd",
    "#5254a3", "#8ca252", "#bd9e39", "#ad494a", "#a55194",
    "#9c9ede", "#cedb9c", "#e7cb94", "#e7969c", "#de9ed6",
)  # fmt: skip
"""Job colours, assigned in order of first appearance: 40 distinct ones (matplotlib's tab10,
tab20's light shades, tab20b), so a batch of up to 40 jobs never repeats a colour."""

TIME_UNITS: tuple[tuple[str, float], ...] = (("days", 86400.0), ("hours", 3600.0),
                                             ("minutes", 60.0))  # fmt: skip


def time_unit(span: float) -> tuple[str, float]:
    """Return (name, seconds) of the unit an axis spanning ``span`` seconds reads best in.

    Days from three days on, hours from three hours, minutes from three minutes,
    else seconds: tick labels stay short numbers without a ``1e7`` offset.
    """
    for name, seconds in TIME_UNITS:
        if span >= 3 * seconds:
            return name, seconds
    return "s", 1.0


def text_colour(colour: str) -> str:
    """Return black or white, whichever reads better on the hex ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "white"

FORMATS: tuple[str, ...] = (".png", ".svg")


def plot_suffix(path: str | os.PathLike[str]) -> str:
    """Return the lower-case suffix of ``path``; ValueError unless it is .png or .svg."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in FORMATS:
        raise ValueError(f"plot file must end in .png or .svg, not '{suffix or os.fspath(path)}'")
    return suffix


def figure_class() -> Any:
    """Return matplotlib's ``Figure``; RuntimeError naming the extra when it is missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise RuntimeError("planner: plotting needs matplotlib (pip install 'planner[plot]')") \
            from None  # fmt: skip
    return Figure
MAX_ROWS = 30
"""Above this many nodes, :func:`plot_windows` draws only the nodes the windows use."""

_AXES_PX = 720  # approximate plot-area width: labels that would not fit are left out
_CHAR_PX = 4.5


def job_colors(windows: Iterable[Window]) -> dict[str, str]:
    """Return job id → colour, in order of the jobs' first window."""
    colors: dict[str, str] = {}
    for w in windows:
        if w.job not in colors:
            colors[w.job] = PALETTE[len(colors) % len(PALETTE)]
    return colors


def window_labels(windows: Sequence[Window]) -> list[str]:
    """Return one label per window: the job id, numbered (``j1#2``) when a job has several."""
    total = Counter(w.job for w in windows)
    seen: Counter[str] = Counter()
    labels = []
    for w in windows:
        seen[w.job] += 1
        labels.append(w.job if total[w.job] == 1 else f"{w.job}#{seen[w.job]}")
    return labels


def _busy(instance: Instance, lo: int, hi: int) -> dict[str, list[tuple[int, int]]]:
    if instance.busy is not None:
        out: dict[str, list[tuple[int, int]]] = {n.id: [] for n in instance.nodes}
        for b in instance.busy:
            out[b.node].append((b.start, b.end))
        return out
    out = {}
    for node in instance.nodes:
        cursor, gaps = lo, []
        for s in sorted((s for s in instance.slots if s.node == node.id), key=lambda s: s.start):
            if s.start > cursor:
                gaps.append((cursor, s.start))
            cursor = max(cursor, s.end)
        if cursor < hi:
            gaps.append((cursor, hi))
        out[node.id] = gaps
    return out


def plot_windows(
    instance: Instance,
    windows: Window | Sequence[Window | None] | None,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    all_nodes: bool = False,
) -> None:
    """Draw ``windows`` over the instance's free slots and write a PNG or SVG to ``path``.

    Parameters
    ----------
    instance
        The instance: its nodes, free slots, busy intervals and horizon.
    windows
        One window, or several (alternatives, a batch); ``None`` entries are
        skipped.
    path
        Output file; the suffix (``.png`` or ``.svg``) picks the format.
    title
        Optional figure title (default: the instance name).
    all_nodes
        Draw every node; by default an instance of more than :data:`MAX_ROWS`
        nodes shows only the nodes the windows use (the title says how many
        others are left out). Slot numbers stay those of the whole list.

    Raises
    ------
    RuntimeError
        matplotlib is not installed (one line naming the extra to install).
    ValueError
        The suffix is not ``.png`` or ``.svg``.
    """
    suffix = plot_suffix(path)
    Figure = figure_class()
    from matplotlib.patches import Patch
    if windows is None:
        windows = []
    elif isinstance(windows, Window):
        windows = [windows]
    shown = [w for w in windows if w is not None]
    ends = [s.end for s in instance.slots] + [p.end for w in shown for p in w.placements]
    starts = [s.start for s in instance.slots] + [w.start for w in shown]
    lo, hi = instance.horizon or (min(starts, default=0), max(ends, default=1))
    nodes = list(instance.nodes)
    used = {p.node for w in shown for p in w.placements}
    if len(nodes) > MAX_ROWS and used and not all_nodes:
        nodes = [n for n in nodes if n.id in used]
    hidden = len(instance.nodes) - len(nodes)
    row = {n.id: len(nodes) - 1 - i for i, n in enumerate(nodes)}

    fig = Figure(figsize=(10, 1.2 + 0.45 * len(nodes)), dpi=100)
    ax = fig.add_subplot()
    for node, spans in _busy(instance, lo, hi).items():
        if node not in row:
            continue
        ax.broken_barh(
            [(a, b - a) for a, b in spans], (row[node] - 0.35, 0.7),
            facecolors="#d9d9d9", edgecolors="#a0a0a0", hatch="///", linewidth=0.5,
        )  # fmt: skip
    for k, s in enumerate(instance.slots):
        if s.node not in row:
            continue
        ax.broken_barh(
            [(s.start, s.end - s.start)], (row[s.node] - 0.35, 0.7),
            facecolors="white", edgecolors="#606060", linewidth=0.8,
        )  # fmt: skip
        ax.text(s.start + 0.5, row[s.node] + 0.22, str(k), fontsize=6, color="#606060", va="center")
    colors = job_colors(shown)
    for w, label in zip(shown, window_labels(shown), strict=True):
        for p in w.placements:
            ax.broken_barh(
                [(p.start, p.end - p.start)], (row[p.node] - 0.25, 0.5),
                facecolors=colors[w.job], edgecolors="black", linewidth=0.6,
            )  # fmt: skip
            if (p.end - p.start) / (hi - lo) * _AXES_PX >= _CHAR_PX * len(label) + 4:
                ax.text(
                    (p.start + p.end) / 2, row[p.node], label,
                    ha="center", va="center", fontsize=7, color=text_colour(colors[w.job]),
                    clip_on=True,
                )  # fmt: skip
    ax.set_yticks(
        [row[n.id] for n in nodes],
        [f"{n.id} (p={n.performance:g}, c={n.price:g})" for n in nodes],
    )
    ax.set_ylim(-0.6, len(nodes) - 0.4)
    ax.set_xlim(lo, hi)
    ax.set_xlabel("time (quanta)")
    head = title if title is not None else (instance.name or "windows")
    if hidden:
        head += f"\nthe {plural(len(nodes), 'node')} the windows use ({hidden} others not drawn)"
    ax.set_title(head)
    ax.grid(axis="x", linewidth=0.3, alpha=0.5)
    handles = [Patch(facecolor="white", edgecolor="#606060", label="free slot")]
    handles.append(Patch(facecolor="#d9d9d9", edgecolor="#a0a0a0", hatch="///", label="busy"))
    handles += [Patch(facecolor=c, edgecolor="black", label=job) for job, c in colors.items()]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7)
    fig.tight_layout()
    fig.savefig(os.fspath(path), format=suffix[1:])
