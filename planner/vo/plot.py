"""Plots of a VO flow: metrics per cycle, and one cycle's reservations on the node time lines.

matplotlib is imported lazily (the optional extra ``planner[plot]``).
"""

from __future__ import annotations

import os

from instances.text import plural
from planner.plot import figure_class, plot_suffix
from planner.vo.flow import Flow

PANELS: tuple[tuple[str, str], ...] = (
    ("placed", "jobs placed"),
    ("failure_rate", "failure rate Y (jobs)"),
    ("alternatives", "alternatives per placed job (NA)"),
    ("t_cpu", "T_CPU (Σ proc_time)"),
    ("start", "mean start"),
    ("finish", "mean finish"),
    ("cost", "mean cost"),
    ("utilisation", "mean node utilisation U"),
)
"""Per-cycle record fields drawn by :func:`plot_cycles`, with their axis labels."""


def plot_cycles(flow: Flow, path: str | os.PathLike[str]) -> None:
    """Draw the per-cycle metrics of ``flow`` (one panel each) to a PNG or SVG file."""
    suffix = plot_suffix(path)
    fig = figure_class()(figsize=(10, 8), dpi=100)
    axes = fig.subplots(4, 2, sharex=True)
    cycles = [c.cycle for c in flow.cycles]
    for ax, (field, label) in zip(axes.flat, PANELS, strict=True):
        values = [getattr(c, field) for c in flow.cycles]
        ax.plot(cycles, [float("nan") if v is None else v for v in values], marker=".", lw=1)
        ax.set_title(label, fontsize=9)
        ax.grid(linewidth=0.3, alpha=0.5)
    from matplotlib.ticker import MaxNLocator

    for ax in axes[-1]:
        ax.set_xlabel("cycle")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(f"VO flow, policy {flow.policy}: {plural(len(flow.cycles), 'cycle')}")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format=suffix[1:])
