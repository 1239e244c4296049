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
    """A horizontal box per label with a gap above 0; the always-optimal labels listed."""
    groups = series(rows, ngeo)
    kinds = [k for k in ("relative", "absolute") if any(k == kind for kind, _ in groups)]
    kinds = kinds or ["relative"]
    boxed = {k: [(lab, g) for (kind, lab), g in groups.items()
                 if kind == k and any(_gap_of(r) > 0 for r in g)] for k in kinds}  # fmt: skip
    height = max(2.6, 0.3 * max(len(b) for b in boxed.values()) + 1.6)
    fig, axes = plt.subplots(1, len(kinds), figsize=(6.2 * len(kinds), height), squeeze=False)
    for kind, ax in zip(kinds, axes[0], strict=True):
        data = [[_gap_of(r) for r in g] for _, g in boxed[kind]]
        if data:
            ax.boxplot(data, orientation="horizontal", showfliers=False, widths=0.6)
        for i, (_, g) in enumerate(boxed[kind], start=1):
            ys = [i + 0.3 * ((k % 7) - 3) / 3 for k in range(len(g))]
            ax.scatter([_gap_of(r) for r in g], ys, s=9, alpha=0.45, linewidths=0,
                       c=[GEOMETRY_COLOURS.get(r["geometry"], "tab:grey") for r in g],
                       rasterized=True, zorder=3)  # fmt: skip
        ticks = [f"{lab} (n={len(g)})" for lab, g in boxed[kind]]
        ax.set_yticks(range(1, len(ticks) + 1), ticks, fontsize=8)
        ax.set_ylim(0.4, len(ticks) + 0.6)
        ax.invert_yaxis()
        ax.set_xscale("symlog", linthresh=0.01 if kind == "relative" else 1.0)
        ax.set_xlim(left=0)
        ax.set_xlabel(AXIS[kind])
        ax.set_title(f"{kind.capitalize()} gap to the exact optimum", fontsize="medium")
        zero = [f"{lab} (n={len(g)})" for (k, lab), g in groups.items()
                if k == kind and not any(_gap_of(r) > 0 for r in g)]  # fmt: skip
        _zero_note(ax, zero)
    if ngeo > 1:
        handles = [plt.Line2D([], [], ls="", marker="o", color=c, label=f"{g} geometry")
                   for g, c in GEOMETRY_COLOURS.items()]  # fmt: skip
        axes[0][-1].legend(handles=handles, fontsize=7, loc="upper right")
    return fig


def _times(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    """One labelled point per algorithm and geometry: median time, mean gap, n rows."""
    import numpy as np

    groups = series(rows, ngeo)
    fig, panels = _panels(plt, [r for g in groups.values() for r in g], 7.0)
    markers = {"rough": "o", "square": "s"}
    algorithms = sorted({r["algorithm"] for r in rows})
    colours = {a: plt.get_cmap("tab20")(i % 20) for i, a in enumerate(algorithms)}
    for kind, ax in panels:
        at_zero = []
        for (k, lab), mine in groups.items():
            if k != kind:
                continue
            x = float(np.median([r["heuristic_seconds"] for r in mine])) * 1000.0
            y = float(np.mean([_gap_of(r) for r in mine]))
            marker = markers.get(mine[0]["geometry"], "o")
            if y == 0.0:  # optimal on every row: grey and listed, not labelled on top of each other
                ax.scatter([x], [y], s=36, marker=marker, facecolors="none", edgecolors="grey")
                at_zero.append(f"{lab} (n={len(mine)})")
                continue
            ax.scatter([x], [y], s=36, marker=marker, color=colours[mine[0]["algorithm"]])
            ax.annotate(f"{lab} (n={len(mine)})", (x, y), fontsize=7, xytext=(4, 3),
                        textcoords="offset points")  # fmt: skip
        if at_zero:
            ax.text(0.01, 0.98, "gap 0 on every row (grey):\n" + "\n".join(at_zero),
                    transform=ax.transAxes, fontsize=6, va="top", ha="left",
                    bbox={"boxstyle": "round", "fc": "white", "alpha": 0.8})  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("median heuristic time per job (ms, log scale)")
        ax.set_yscale("symlog", linthresh=0.01 if kind == "relative" else 1.0)
        top = max((float(np.mean([_gap_of(r) for r in g])) for (k, _), g in groups.items()
                   if k == kind), default=0.0)  # fmt: skip
        ax.set_ylim(0, 3 * top if top > 0 else None)  # headroom: labels stay below the title
        ax.set_ylabel("mean " + AXIS[kind])
        ax.set_title(f"Heuristic time vs mean {kind} gap" + (" (o rough, s square)" if ngeo > 1
                                                               else ""))  # fmt: skip
    return fig


def _matches(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    import numpy as np

    crits = sorted({s["criterion"] for s in summary})
    grid = np.full((len(labels), len(crits)), np.nan)
    count = np.zeros((len(labels), len(crits)), dtype=int)
    for s in summary:
        if s["exact_match_rate"] is not None:
            cell = (labels.index(_label(s, ngeo)), crits.index(s["criterion"]))
            grid[cell] = 100 * s["exact_match_rate"]
            count[cell] = s["proven"]
    fig, ax = plt.subplots(figsize=(1.3 * len(crits) + 3, 0.3 * len(labels) + 1.5))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for (i, j), v in np.ndenumerate(grid):
        if not np.isnan(v):
            ax.text(j, i, f"{v:.0f}% n={count[i, j]}", ha="center", va="center", fontsize=6,
                    color="white" if v < 15 or v > 85 else "black")  # fmt: skip
    ax.set_xticks(range(len(crits)), crits, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.set_title("Exact-match rate (%) per criterion; n = rows with a proven optimum")
    fig.colorbar(im, ax=ax, fraction=0.04, label="exact-match rate (%)")
    return fig
