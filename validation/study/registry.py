"""The registry of study kinds: one line per kind (docs/studies.md, "Adding a study kind").

Each kind is a :class:`~validation.study.engine.kind.StudyKind` in its own folder;
``planner study KIND`` runs it, and ``planner study list``, ``report`` and ``export``
open a database of any kind by its format marker:

========================  ============  ==============================================
kind                      unit          what a study compares
========================  ============  ==============================================
``gap``                   instance      slot-search heuristics vs the exact optimum
``cluster``               replay        cluster policies on workloads (Klusáček &
                                        Rudová 2008's metrics)
``schedule-gap``          snapshot      cluster policies vs the exact optimum
========================  ============  ==============================================
"""

from __future__ import annotations

from pathlib import Path

from validation.study.cluster.kind import CLUSTER
from validation.study.engine.errors import StudyError
from validation.study.engine.kind import StudyKind
from validation.study.engine.storage import StudyStore, read_format
from validation.study.gap.kind import GAP
from validation.study.schedule_gap.kind import SCHEDULE_GAP

KINDS: dict[str, StudyKind] = {k.name: k for k in (GAP, CLUSTER, SCHEDULE_GAP)}
"""Every study kind, by its ``planner study`` subcommand, in the order of ``--help``."""

KIND_NAMES: tuple[str, ...] = tuple(KINDS)


def kind(name: str) -> StudyKind:
    """Return the study kind ``name`` (one of :data:`KIND_NAMES`)."""
    return KINDS[name]


def kinds() -> list[StudyKind]:
    """Return every study kind."""
    return list(KINDS.values())


def kind_of(path: str | Path) -> StudyKind:
    """Return the kind of the study database ``path`` by its format marker.

    Raises
    ------
    StudyError
        One line: missing, not an SQLite file, or not a planner study database.
    """
    fmt = read_format(path)
    for k in KINDS.values():
        if fmt == k.store.FORMAT:
            return k
    formats = ", ".join(k.store.FORMAT for k in KINDS.values())
    found = fmt or ("empty" if Path(path).stat().st_size == 0 else "no planner format marker")
    raise StudyError(f"{path}: not a planner study database ({found}; the study formats are "
                     f"{formats})")  # fmt: skip


def open_readonly(path: str | Path) -> tuple[StudyKind, StudyStore]:
    """Open a study database of any kind for reading only (nothing is ever written)."""
    k = kind_of(path)
    return k, k.store(path, readonly=True)
