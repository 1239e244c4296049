"""The figures of a gap study report (PNG and SVG; need matplotlib, the ``plot`` extra).

- ``gap_distribution``: the relative gap per algorithm (box plot with the points);
- ``time_vs_gap``: heuristic time per job against its gap;
- ``exact_match``: the exact-match rate per criterion and algorithm (a heat map).
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


def _gaps(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    data = [[r["gap"] for r in rows if r["gap"] is not None and _label(r, ngeo) == lab]
            for lab in labels]  # fmt: skip
    fig, ax = plt.subplots(figsize=(min(16.0, max(5.0, 0.5 * len(labels) + 2)), 4.5))
    ax.boxplot([d or [float("nan")] for d in data], showfliers=False)
    for i, d in enumerate(data, start=1):
        ax.plot([i + 0.15 * ((k % 5) - 2) / 2 for k in range(len(d))], d, ".", alpha=0.35, ms=4)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=60, ha="right", fontsize=8)
    ax.set_yscale("symlog", linthresh=0.01)
    ax.set_ylim(bottom=min([-0.005] + [1.1 * g for d in data for g in d]))
    ax.set_ylabel("relative gap (0 = optimal; symlog)")
    ax.set_title("Gap to the exact optimum per algorithm")
    return fig


def _times(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    fig, ax = plt.subplots(figsize=(8, 5))
    _cycle(plt, ax, len(labels))
    for lab in labels:
        pts = [(r["heuristic_seconds"] * 1000, r["gap"]) for r in rows
               if r["gap"] is not None and _label(r, ngeo) == lab]  # fmt: skip
        if pts:
            ax.scatter(*zip(*pts, strict=True), s=10, alpha=0.6, label=lab)
    ax.set_xscale("log")
    ax.set_xlabel("heuristic time per job (ms, log scale)")
    ax.set_yscale("symlog", linthresh=0.01)
    ax.set_ylabel("relative gap (symlog)")
    ax.set_title("Heuristic time vs gap")
    _legend(ax, len(labels))
    return fig


def _matches(plt: Any, rows: Any, summary: Any, labels: list[str], ngeo: int) -> Any:
    import numpy as np

    crits = sorted({s["criterion"] for s in summary})
    grid = np.full((len(labels), len(crits)), np.nan)
    for s in summary:
        if s["exact_match_rate"] is not None:
            grid[labels.index(_label(s, ngeo)), crits.index(s["criterion"])] = (
                100 * s["exact_match_rate"]
            )
    fig, ax = plt.subplots(figsize=(1.0 * len(crits) + 3, 0.3 * len(labels) + 1.5))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for (i, j), v in np.ndenumerate(grid):
        if not np.isnan(v):
            ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(crits)), crits, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.set_title("Exact-match rate (%) per criterion")
    fig.colorbar(im, ax=ax, fraction=0.04)
    return fig


def _cycle(plt: Any, ax: Any, n: int) -> None:
    """Distinct colours for up to 20 series (tab20), then repeat."""
    from cycler import cycler

    colours = [plt.get_cmap("tab20")(i % 20) for i in range(max(n, 1))]
    ax.set_prop_cycle(cycler(color=colours))


def _legend(ax: Any, n: int) -> None:
    """A legend outside the axes, in two columns when long."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), ncol=1 if n <= 16 else 2)
