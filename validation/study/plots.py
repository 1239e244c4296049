"""The figures of a gap study report (PNG and SVG; need matplotlib, the ``plot`` extra).

- ``gap_distribution``: the gap per algorithm (box plot with the points),
  relative, or absolute for start/DEP/COORD (``metrics.ABSOLUTE_CRITERIA``);
- ``time_vs_gap``: one labelled point per algorithm and geometry: median
  heuristic time against mean gap;
- ``exact_match``: the exact-match rate per criterion and algorithm (a heat map).

Every label carries ``n``, the number of rows behind the value (docs/studies.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FIGURES: tuple[str, ...] = ("gap_distribution", "time_vs_gap", "exact_match")
FORMATS: tuple[str, ...] = ("png", "svg")


def available() -> bool:
    """Return True when matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _label(row: Mapping[str, Any], geometries: int) -> str:
    return row["algorithm"] + (f" [{row['geometry']}]" if geometries > 1 else "")


def draw(rows: Sequence[Mapping[str, Any]], summary: Sequence[Mapping[str, Any]],
         out: Path) -> list[str]:  # fmt: skip
    """Write every figure to ``out`` as PNG and SVG; PNG names ([] without matplotlib)."""
    if not available() or not rows:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "planner"  # reproducible SVG ids
    out.mkdir(parents=True, exist_ok=True)
    ngeo = len({r["geometry"] for r in rows})
    labels = sorted({_label(r, ngeo) for r in rows})
    names = []
    for name, fn in (("gap_distribution", _gaps), ("time_vs_gap", _times),
                     ("exact_match", _matches)):  # fmt: skip
        fig = fn(plt, rows, summary, labels, ngeo)
        fig.tight_layout()
        for ext in FORMATS:
            meta = {"Date": None} if ext == "svg" else None
            fig.savefig(out / f"{name}.{ext}", dpi=110, metadata=meta, bbox_inches="tight")
        plt.close(fig)
        names.append(f"{name}.png")
    return names


def _kind_of(row: Mapping[str, Any]) -> str:
    from validation.study.metrics import gap_kind

    return gap_kind(row["criterion"])


def _gap_of(row: Mapping[str, Any]) -> float:
    """The row's headline gap: absolute for start/DEP/COORD, relative otherwise."""
    from validation.study.metrics import absolute_gap, sense_of

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


def _gaps(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    gapped = [r for r in rows if r["gap"] is not None]
    fig, panels = _panels(plt, gapped, min(12.0, max(5.0, 0.45 * len(labels) + 2)))
    for kind, ax in panels:
        mine = [lab for lab in labels
                if any(_label(r, ngeo) == lab and _kind_of(r) == kind for r in gapped)]  # fmt: skip
        data = [[_gap_of(r) for r in gapped if _label(r, ngeo) == lab] for lab in mine]
        ax.boxplot([d or [float("nan")] for d in data], showfliers=False)
        for i, d in enumerate(data, start=1):
            xs = [i + 0.15 * ((k % 5) - 2) / 2 for k in range(len(d))]
            ax.plot(xs, d, ".", alpha=0.35, ms=4)
        ticks = [f"{lab} (n={len(d)})" for lab, d in zip(mine, data, strict=True)]
        ax.set_xticks(range(1, len(mine) + 1), ticks, rotation=60, ha="right", fontsize=8)
        ax.set_yscale("symlog", linthresh=0.01 if kind == "relative" else 1.0)
        ax.set_ylim(bottom=0)
        ax.set_ylabel(AXIS[kind])
        ax.set_title(f"{kind.capitalize()} gap to the exact optimum")
    return fig


def _times(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    """One labelled point per algorithm and geometry: median time, mean gap, n rows."""
    import numpy as np

    gapped = [r for r in rows if r["gap"] is not None]
    fig, panels = _panels(plt, gapped, 7.0)
    markers = {"rough": "o", "square": "s"}
    algorithms = sorted({r["algorithm"] for r in rows})
    colours = {a: plt.get_cmap("tab20")(i % 20) for i, a in enumerate(algorithms)}
    for kind, ax in panels:
        at_zero = []
        for lab in labels:
            mine = [r for r in gapped if _label(r, ngeo) == lab and _kind_of(r) == kind]
            if not mine:
                continue
            x = float(np.median([r["heuristic_seconds"] for r in mine])) * 1000.0
            y = float(np.mean([_gap_of(r) for r in mine]))
            ax.scatter([x], [y], s=36, marker=markers.get(mine[0]["geometry"], "o"),
                       color=colours[mine[0]["algorithm"]])  # fmt: skip
            if y == 0.0:  # optimal on every row: listed once, not labelled on top of each other
                at_zero.append(f"{lab} (n={len(mine)})")
                continue
            ax.annotate(f"{lab} (n={len(mine)})", (x, y), fontsize=7, xytext=(4, 3),
                        textcoords="offset points")  # fmt: skip
        if at_zero:
            ax.text(0.01, 0.98, "gap 0 on every row:\n" + "\n".join(at_zero),
                    transform=ax.transAxes, fontsize=6, va="top", ha="left",
                    bbox={"boxstyle": "round", "fc": "white", "alpha": 0.8})  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("median heuristic time per job (ms, log scale)")
        ax.set_yscale("symlog", linthresh=0.01 if kind == "relative" else 1.0)
        ax.set_ylim(bottom=0)
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
            ax.text(j, i, f"{v:.0f}% n={count[i, j]}", ha="center", va="center", fontsize=6)
    ax.set_xticks(range(len(crits)), crits, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.set_title("Exact-match rate (%) per criterion; n = rows with a proven optimum")
    fig.colorbar(im, ax=ax, fraction=0.04)
    return fig
