"""The algorithm registry: names, aliases, criteria, exactness flags."""

from __future__ import annotations

import dataclasses

import pytest

from instances import CRITERIA
from planner import ALGORITHMS, ALIASES, Algorithm, resolve

NAMES = [
    "alp", "amp", "min_finish", "min_cost", "min_runtime", "min_proc_time", "max_q",
    "max_q_lite", "dep", "dep_lite", "coord", "coord_lite", "csa", "min_runtime_exact",
    "min_finish_exact", "min_proc_time_exact",
]  # fmt: skip


def test_the_issue_names_are_registered() -> None:
    """Exactly the names of the issue, plus the papers' aliases first_fit and multiple_best."""
    assert list(ALGORITHMS) == NAMES
    assert ALIASES == {"first_fit": "amp", "multiple_best": "csa"}


@pytest.mark.parametrize("algo", list(ALGORITHMS.values()), ids=list(ALGORITHMS))
def test_entries_are_complete(algo: Algorithm) -> None:
    """Each entry names a known criterion (or None for CSA), a source and a summary."""
    assert algo.criterion is None or algo.criterion in CRITERIA
    assert algo.source and algo.summary
    assert (algo.criterion is None) == (algo.name == "csa")
    with pytest.raises(dataclasses.FrozenInstanceError):
        algo.name = "x"  # type: ignore[misc]


def test_exact_flags() -> None:
    """Exact over the AEP space: AMP, minCost, the DP forms and the SPEC §9 selectors."""
    exact = {a.name for a in ALGORITHMS.values() if a.exact}
    assert exact == {"amp", "min_cost", "max_q", "dep", "coord", "min_runtime_exact",
                     "min_finish_exact", "min_proc_time_exact"}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "expected"),
    [("amp", "amp"), ("first_fit", "amp"), ("multiple_best", "csa"), ("dep_lite", "dep_lite")],
)
def test_resolve(name: str, expected: str) -> None:
    """Names and aliases resolve to their entry."""
    assert resolve(name).name == expected


@pytest.mark.parametrize(
    "name",
    [
        "AMP",  # names are case-sensitive
        "maxq",  # the paper's spelling is registered as max_q
        "",  # empty
    ],
)
def test_resolve_rejects_unknown_names(name: str) -> None:
    """An unknown name raises KeyError listing the choices."""
    with pytest.raises(KeyError, match="choose from"):
        resolve(name)
