"""The figures of a gap study report (PNG; SVG on request; need matplotlib, the ``plot`` extra).

- ``gap_distribution``: the gap per algorithm, relative, or absolute for
  start/DEP/COORD (``metrics.ABSOLUTE_CRITERIA``): a horizontal box per label
  with a gap above 0 on some row, its points rasterised and coloured by
  geometry; the labels optimal on every row are listed beside it;
- ``time_vs_gap``: one labelled point per algorithm and geometry: median
  heuristic time against mean gap;
- ``exact_match``: the exact-match rate per criterion and algorithm (a heat map).

Every label carries ``n``, the number of rows behind the value; the two gap
figures take their rows from one grouping, :func:`series`, so a label has the
same ``n`` in both (docs/studies.md).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from validation.study.engine.figures import DEFAULT_FORMATS, FORMATS, available, save

__all__ = ["DEFAULT_FORMATS", "FIGURES", "FORMATS", "available", "draw", "save", "series"]

FIGURES: tuple[str, ...] = ("gap_distribution", "time_vs_gap", "exact_match")


def _label(row: Mapping[str, Any], geometries: int) -> str:
    return row["algorithm"] + (f" [{row['geometry']}]" if geometries > 1 else "")


def draw(rows: Sequence[Mapping[str, Any]], summary: Sequence[Mapping[str, Any]],
         out: Path, formats: Sequence[str] = DEFAULT_FORMATS) -> list[str]:  # fmt: skip
    """Write every figure to ``out`` in ``formats``; return PNG names ([] without matplotlib)."""
    if not available() or not rows:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    ngeo = len({r["geometry"] for r in rows})
    labels = sorted({_label(r, ngeo) for r in rows})
    names = []
    for name, fn in (("gap_distribution", _gaps), ("time_vs_gap", _times),
                     ("exact_match", _matches)):  # fmt: skip
        fig = fn(plt, rows, summary, labels, ngeo)
        fig.tight_layout()
        save(fig, out, name, formats)
        plt.close(fig)
        names.append(f"{name}.png")
    return names


def _kind_of(row: Mapping[str, Any]) -> str:
    from validation.study.gap.metrics import gap_kind

    return gap_kind(row["criterion"])


def _gap_of(row: Mapping[str, Any]) -> float:
    """The row's headline gap: absolute for start/DEP/COORD, relative otherwise."""
    from validation.study.gap.metrics import absolute_gap, sense_of

    if _kind_of(row) == "relative":
        return float(row["gap"])
    return absolute_gap(row["value"], row["exact_value"], sense_of(row["criterion"]))


AXIS = {"relative": "relative gap (0 = optimal; symlog)",
        "absolute": "absolute gap, criterion units (0 = optimal; symlog)"}  # fmt: skip


def _panels(plt: Any, rows: Any, width: float) -> tuple[Any, list[tuple[str, Any]]]:
    """One axis per gap kind present in ``rows`` (relative left, absolute right)."""
    kinds = [k for k in ("relative", "absolute") if any(_kind_of(r) == k for r in rows)] or [
        "relative"
    ]
    fig, axes = plt.subplots(1, len(kinds), figsize=(width * len(kinds), 5.0), squeeze=False)
    return fig, list(zip(kinds, axes[0], strict=True))


def series(rows: Sequence[Mapping[str, Any]], ngeo: int) -> dict[tuple[str, str], list[Any]]:
    """Group the rows with a gap by (gap kind, label): the rows behind each gap figure's ``n``.

    A label evaluated on criteria of both kinds (CSA) has one series per kind.
    """
    out: dict[tuple[str, str], list[Any]] = {}
    for r in rows:
        if r["gap"] is not None:
            out.setdefault((_kind_of(r), _label(r, ngeo)), []).append(r)
    return dict(sorted(out.items()))


GEOMETRY_COLOURS = {"rough": "tab:blue", "square": "tab:orange"}


def _zero_note(ax: Any, names: list[str]) -> None:
    """List the labels optimal on every row under the axis (they would be flat boxes at 0)."""
    import textwrap

    if names:
        text = textwrap.fill("gap 0 on every row: " + ", ".join(names), 95)
        ax.annotate(text, (0.0, 0.0), xycoords="axes fraction", xytext=(0, -36),
                    textcoords="offset points", fontsize=7, va="top", ha="left")


def _gaps(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    """A horizontal box per label with a gap above 0; the always-optimal labels listed.

    Boxes are grey with a black median (no colour of their own: colour is the geometry of
    the dots); 0 sits inside the axis, so a box whose quartiles are 0 still shows its
    median, and its tick says so.
    """
    from matplotlib.patches import Patch

    groups = series(rows, ngeo)
    kinds = [k for k in ("relative", "absolute") if any(k == kind for kind, _ in groups)]
    kinds = kinds or ["relative"]
    boxed = {k: [(lab, g) for (kind, lab), g in groups.items()
                 if kind == k and any(_gap_of(r) > 0 for r in g)] for k in kinds}  # fmt: skip
    height = max(2.8, 0.32 * max(len(b) for b in boxed.values()) + 1.8)
    fig, axes = plt.subplots(1, len(kinds), figsize=(6.4 * len(kinds), height), squeeze=False)
    for kind, ax in zip(kinds, axes[0], strict=True):
        data = [[_gap_of(r) for r in g] for _, g in boxed[kind]]
        if data:
            ax.boxplot(data, orientation="horizontal", showfliers=False, widths=0.6,
                       patch_artist=True, boxprops={"facecolor": "0.88", "edgecolor": "black"},
                       medianprops={"color": "black", "linewidth": 2.2},
                       whiskerprops={"color": "0.3"}, capprops={"color": "0.3"},
                       zorder=2)  # fmt: skip
        for i, (_, g) in enumerate(boxed[kind], start=1):
            ys = [i + 0.3 * ((k % 7) - 3) / 3 for k in range(len(g))]
            ax.scatter([_gap_of(r) for r in g], ys, s=9, alpha=0.5, linewidths=0,
                       c=[GEOMETRY_COLOURS.get(r["geometry"], "tab:grey") for r in g],
                       rasterized=True, zorder=3)  # fmt: skip
        ticks = []
        for (lab, g), values in zip(boxed[kind], data, strict=True):
            median = statistics.median(values)
            ticks.append(f"{lab} (n={len(g)}{', median 0' if median == 0 else ''})")
        ax.set_yticks(range(1, len(ticks) + 1), ticks, fontsize=8)
        ax.set_ylim(0.4, len(ticks) + 0.6)
        ax.invert_yaxis()
        linthresh = 0.01 if kind == "relative" else 1.0
        ax.set_xscale("symlog", linthresh=linthresh)
        ax.set_xlim(left=-0.3 * linthresh)  # 0 inside the axis: a median at 0 stays visible
        ax.axvline(0, color="0.6", linewidth=0.8, zorder=1)
        ax.set_xlabel(AXIS[kind])
        ax.set_title(f"{kind.capitalize()} gap to the exact optimum", fontsize="medium")
        zero = [f"{lab} (n={len(g)})" for (k, lab), g in groups.items()
                if k == kind and not any(_gap_of(r) > 0 for r in g)]  # fmt: skip
        _zero_note(ax, zero)
    handles = [plt.Line2D([], [], color="black", linewidth=2.2, label="median"),
               Patch(facecolor="0.88", edgecolor="black", label="middle half of the rows")]
    if ngeo > 1:
        handles += [plt.Line2D([], [], ls="", marker="o", color=c, label=f"a row, {g} geometry")
                    for g, c in GEOMETRY_COLOURS.items()]  # fmt: skip
    else:
        handles.append(plt.Line2D([], [], ls="", marker="o", color="tab:blue", label="a row"))
    fig.legend(handles=handles, fontsize=7, loc="lower center", ncol=len(handles),
               bbox_to_anchor=(0.5, 1.0), frameon=False)  # above the panels: covers no box
    return fig


def _times(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    """One point per algorithm and geometry: median time, mean gap; each point carries a
    number, and the key under the axes names it with its n (names written beside the
    points overlap: the heuristics' times and gaps are close)."""
    import numpy as np

    groups = series(rows, ngeo)
    kinds = [k for k in ("relative", "absolute") if any(k == kind for kind, _ in groups)]
    kinds = kinds or ["relative"]
    markers = {"rough": "o", "square": "s"}
    algorithms = sorted({r["algorithm"] for r in rows})
    colours = {a: plt.get_cmap("tab20")(i % 20) for i, a in enumerate(algorithms)}
    found: dict[str, tuple[list[tuple[float, float, str, Any, str]], list[str]]] = {}
    for kind in kinds:
        points, at_zero = [], []
        for (k, lab), mine in groups.items():
            if k != kind:
                continue
            x = float(np.median([r["heuristic_seconds"] for r in mine])) * 1000.0
            y = float(np.mean([_gap_of(r) for r in mine]))
            marker = markers.get(mine[0]["geometry"], "o")
            if y == 0.0:
                at_zero.append(f"{lab} (n={len(mine)})")
                points.append((x, y, "", "grey", marker))
            else:
                points.append((x, y, f"{lab} (n={len(mine)})", colours[mine[0]["algorithm"]],
                               marker))  # fmt: skip
        found[kind] = (points, at_zero)
    keys = {k: _key(p, z) for k, (p, z) in found.items()}
    lines = max(len(k.splitlines()) for k in keys.values())
    fig, axes = plt.subplots(2, len(kinds), figsize=(6.4 * len(kinds), 4.0 + 0.13 * lines),
                             height_ratios=[4.0, 0.13 * lines + 0.2], squeeze=False)  # fmt: skip
    for col, kind in enumerate(kinds):
        ax, below = axes[0][col], axes[1][col]
        points, _ = found[kind]
        for x, y, label, colour, marker in points:
            if label:
                ax.scatter([x], [y], s=40, marker=marker, color=colour, edgecolors="black",
                           linewidths=0.4, zorder=3)  # fmt: skip
            else:  # optimal on every row: grey, listed at the end of the key
                ax.scatter([x], [y], s=30, marker=marker, facecolors="none", edgecolors="grey")
        linthresh = 0.01 if kind == "relative" else 1.0
        ax.set_xscale("log")
        ax.set_yscale("symlog", linthresh=linthresh)
        top = max((y for _, y, *_ in points), default=0.0)
        ax.set_ylim(-0.3 * linthresh, 2 * top if top > 0 else 1)
        ax.set_xlabel("median heuristic time per job (ms, log scale)")
        ax.set_ylabel("mean " + AXIS[kind])
        ax.set_title(f"Heuristic time vs mean {kind} gap" + (" (o rough, s square)" if ngeo > 1
                                                               else ""), fontsize="medium")
        _tags(ax, [(x, y) for x, y, label, *_ in points if label])
        below.axis("off")
        below.text(0.0, 1.0, keys[kind], transform=below.transAxes, fontsize=7, va="top",
                   ha="left", family="monospace")  # fmt: skip
    return fig


def _key(points: list[tuple[float, float, str, Any, str]], at_zero: list[str]) -> str:
    """The key under a time-vs-gap panel: number → label, then the labels at gap 0."""
    import textwrap

    key = [f"{i:>2}  {p[2]}" for i, p in enumerate([p for p in points if p[2]], start=1)]
    if at_zero:
        key.append("grey, gap 0 on every row: " + ", ".join(at_zero))
    return "\n".join(textwrap.fill(line, 84, subsequent_indent="    ") for line in key)


def _tags(ax: Any, points: list[tuple[float, float]]) -> None:
    """Number the points; points closer than 4 % of the axes share one tag ("3,4")."""
    ax.figure.canvas.draw()  # the final limits, for the distances on screen
    where = [ax.transAxes.inverted().transform(ax.transData.transform(p)) for p in points]
    tags: list[tuple[Any, list[int]]] = []
    for i, at in enumerate(where, start=1):
        near = next((t for t in tags if abs(t[0][0] - at[0]) < 0.04
                     and abs(t[0][1] - at[1]) < 0.04), None)  # fmt: skip
        if near is None:
            tags.append((at, [i]))
        else:
            near[1].append(i)
    for at, numbers in tags:
        ax.annotate(",".join(map(str, numbers)), at, xycoords="axes fraction", fontsize=7,
                    xytext=(4, 4), textcoords="offset points", fontweight="bold")  # fmt: skip


MIN_CELL = 10
"""The fewest proven rows behind an ``exact_match`` cell drawn in full colour; a cell on
fewer is drawn pale, so that no rate on a handful of rows stands out."""


def _matches(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    """The match rate per criterion and label as a heat map, each cell with its n; cells
    on fewer than :data:`MIN_CELL` proven rows pale; dep and coord marked as scored
    against the free-start optimum."""
    import numpy as np

    from validation.study.gap.task import FREE_START

    crits = sorted({s["criterion"] for s in summary})
    grid = np.full((len(labels), len(crits)), np.nan)
    count = np.zeros((len(labels), len(crits)), dtype=int)
    for s in summary:
        if s["exact_match_rate"] is not None:
            cell = (labels.index(_label(s, ngeo)), crits.index(s["criterion"]))
            grid[cell] = 100 * s["exact_match_rate"]
            count[cell] = s["proven"]
    fig, ax = plt.subplots(figsize=(1.3 * len(crits) + 3, 0.3 * len(labels) + 1.9))
    cmap = plt.get_cmap("RdYlGn")
    colours = np.ones((*grid.shape, 4))
    for (i, j), v in np.ndenumerate(grid):
        if np.isnan(v):
            continue
        rgba = np.array(cmap(v / 100))
        colours[i, j] = rgba if count[i, j] >= MIN_CELL else 0.3 * rgba + 0.7  # pale
        full = count[i, j] >= MIN_CELL
        ax.text(j, i, f"{v:.0f}% n={count[i, j]}", ha="center", va="center", fontsize=7,
                color=("white" if full and (v < 15 or v > 85) else "black" if full
                       else "0.35"), fontstyle="normal" if full else "italic")  # fmt: skip
    ax.imshow(colours, aspect="auto")
    names = [f"{c}\n(free start)" if c in FREE_START else c for c in crits]
    ax.set_xticks(range(len(crits)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.set_title(f"Exact-match rate (%) per criterion; n = rows with a proven optimum\npale: "
                 f"n < {MIN_CELL} (a rate on few rows); dep and coord against the free-start "
                 "optimum", fontsize="medium")  # fmt: skip
    sm = plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, 100))
    fig.colorbar(sm, ax=ax, fraction=0.04, label="exact-match rate (%)")
    return fig
