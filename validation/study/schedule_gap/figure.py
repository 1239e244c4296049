"""The figure of a schedule-gap report: per policy, mean extra delayed jobs and makespan gap.

Two bar panels over the snapshots proven optimal (Klusáček & Rudová 2008's
criteria; ``docs/schedule-based.md``, "Gap to the optimum"), each bar with
its maximum as a marker; PNG (and SVG on request), written reproducibly. Needs matplotlib
(the ``plot`` extra); without it no figure is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from validation.study.engine.figures import DEFAULT_FORMATS, available, save

NAME = "schedule_gap"
PANELS = (
    ("extra_delayed", "max_extra_delayed", "extra delayed jobs (U − U*)", 1.0),
    ("makespan_gap", "max_makespan_gap", "makespan gap (C − C*) / C* (%)", 100.0),
)


def draw(summary: Sequence[Mapping[str, Any]], out: Path,
         formats: Sequence[str] = DEFAULT_FORMATS) -> list[str]:  # fmt: skip
    """Write the figure to ``out`` in ``formats``; return the PNG name ([] without matplotlib)."""
    if not available() or not any(s["proven"] for s in summary):
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    policies = [s["policy"] for s in summary]
    x = list(range(len(policies)))
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    proven = max(s["proven"] for s in summary)
    for ax, (mean, top, title, scale) in zip(axes, PANELS, strict=True):
        means = [scale * (s[mean] or 0.0) for s in summary]
        tops = [scale * (s[top] or 0.0) for s in summary]
        bars = ax.bar(x, means, color="tab:blue", label="mean")
        ax.bar_label(bars, [f"{m:.2g}" for m in means], fontsize=7, padding=2)  # 0 shows too
        ax.scatter(x, tops, color="tab:red", marker="_", s=300, linewidths=2, label="max",
                   zorder=3)  # fmt: skip
        ax.set_ylim(-0.02 * max(1.0, *tops), 1.2 * max(1.0, *tops))  # a max of 0 is visible
        ax.set_xticks(x, policies)
        ax.set_title(title, fontsize="medium")
        ax.legend(fontsize="small")
    fig.suptitle(f"gap to the proven optimum (n = {plural(proven, 'snapshot')} proven; bars: mean, "
                 "labelled)", fontsize="medium")
    fig.tight_layout()
    save(fig, out, NAME, formats)
    plt.close(fig)
    return [f"{NAME}.png"]
