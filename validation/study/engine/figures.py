"""Writing a report's figures: PNG always, SVG on request, reproducibly (the ``plot`` extra).

Every kind's figures go through :func:`save`; without matplotlib (:func:`available`)
a report is written without them and says how to add them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

FORMATS: tuple[str, ...] = ("png", "svg")
"""Every format a report may hold; PNG is always written, SVG on request."""
DEFAULT_FORMATS: tuple[str, ...] = ("png",)


def available() -> bool:
    """Return True when matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def save(fig: Any, out: Path, name: str, formats: Sequence[str] = DEFAULT_FORMATS) -> None:
    """Write ``fig`` as ``out/name.EXT`` for each format (SVG reproducibly: no date, fixed ids).

    A format not asked for is removed, so a report never mixes figures of two runs.
    """
    import matplotlib.pyplot as plt

    unknown = [f for f in formats if f not in FORMATS]
    if unknown or "png" not in formats:
        raise ValueError(f"figure formats must include png and be among {', '.join(FORMATS)}")
    plt.rcParams["svg.hashsalt"] = "planner"
    for ext in FORMATS:
        path = out / f"{name}.{ext}"
        if ext in formats:
            meta = {"Date": None} if ext == "svg" else None
            fig.savefig(path, dpi=110, metadata=meta, bbox_inches="tight")
        else:
            path.unlink(missing_ok=True)  # a format not asked for: no stale copy of an old run
