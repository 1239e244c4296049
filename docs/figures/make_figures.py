"""Draw the figures of docs/concepts.md (run from anywhere; needs matplotlib).

    python docs/figures/make_figures.py

Writes ``windows.png`` and ``windows.svg`` next to this script: one job of
n = 3 tasks, volume V = 20, on three nodes, placed at T = 10 as a rough
window (each task lasts ceil(V / p_i)) and as a square window (every task
lasts ceil(V / min p_i)), with the slot edges that define the DEP/COORD
distances. The output is byte-identical from run to run.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HORIZON = (0, 45)
NODES = [("n1", 2.0, (0, 30)), ("n2", 1.0, (5, 40)), ("n3", 4.0, (10, 35))]  # id, p, free slot
VOLUME, START = 20, 10


def _panel(ax: plt.Axes, geometry: str) -> None:
    slowest = min(p for _, p, _ in NODES)
    for row, (node, p, (s, e)) in enumerate(NODES):
        y = len(NODES) - 1 - row
        ax.broken_barh([(HORIZON[0], s - HORIZON[0]), (e, HORIZON[1] - e)], (y - 0.3, 0.6),
                       facecolors="0.85", edgecolor="0.5", hatch="///")  # fmt: skip
        ax.broken_barh([(s, e - s)], (y - 0.3, 0.6), facecolors="none", edgecolor="black")
        d = math.ceil(VOLUME / (p if geometry == "rough" else slowest))
        ax.broken_barh([(START, d)], (y - 0.2, 0.4), facecolors="tab:blue", alpha=0.8)
        near = min(START - s, e - (START + d))
        far = max(START - s, e - (START + d))
        ax.text(START + d / 2, y, f"d={d}", ha="center", va="center", color="white", fontsize=8)
        ax.text(HORIZON[1] + 0.5, y, f"{node} p={p:g}  near {near}  far {far}", va="center",
                fontsize=8)  # fmt: skip
    ax.axvline(START, color="tab:red", ls="--", lw=1)
    ax.text(START, len(NODES) - 0.45, "T", color="tab:red", ha="center", fontsize=9)
    ax.set_yticks([])
    ax.set_xlim(HORIZON[0], HORIZON[1])
    ax.set_ylim(-0.6, len(NODES) - 0.3)
    ax.set_title(f"{geometry} window (T = {START}, V = {VOLUME})", fontsize=10)


def main() -> None:
    """Write windows.png and windows.svg beside this script."""
    plt.rcParams["svg.hashsalt"] = "planner-docs"
    fig, axes = plt.subplots(2, 1, figsize=(8.5, 4.2), sharex=True)
    _panel(axes[0], "rough")
    _panel(axes[1], "square")
    axes[1].set_xlabel("time (quanta); hatched: busy, outlined: free slot, blue: the job's tasks")
    fig.tight_layout()
    here = Path(__file__).resolve().parent
    fig.savefig(here / "windows.png", dpi=110, metadata={"Software": None})
    fig.savefig(here / "windows.svg", metadata={"Date": None})
    plt.close(fig)


if __name__ == "__main__":
    main()
