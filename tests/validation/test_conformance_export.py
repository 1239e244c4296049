"""The export manifest's tie rules (validation/conformance/export.py) say what
docs/algorithms.md says for each algorithm, classified as the registry classifies it."""

from __future__ import annotations

import pytest

from planner import ALGORITHMS
from validation.conformance.export import tie_rule

SIX = ("alp", "amp", "min_cost", "min_runtime", "min_finish", "max_q")


@pytest.mark.parametrize("name", SIX)
def test_where_steps_are_evaluated(name: str) -> None:
    """The exact AEP selectors (min_cost, max_q) evaluate once per distinct start on duration
    levels; the swap heuristic every formed step on performance levels; AMP and ALP stop at
    the first formed (fitting) step with one pass per performance level."""
    rule = tie_rule(name)
    aep_exact = ALGORITHMS[name].exact and name not in ("amp", "alp")
    assert ("once per distinct start" in rule) == aep_exact
    assert ("per task duration" in rule) == aep_exact
    assert ("every formed step" in rule) == (name in ("min_runtime", "min_finish"))
    assert ("one pass per performance level" in rule) == (name in ("amp", "alp"))
    assert "(start, node order)" in rule and "read index" in rule  # the read order


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("amp", "cost at most S"),  # the budget, met with equality
        ("alp", "no budget"),  # the cap alone
        ("alp", "compared exactly"),  # C = S/(V·n) in exact decimals
        ("min_runtime", "of equally long ones the dearest, then the later read"),  # L's tie
        ("min_finish", "valued by finish"),
        ("max_q", "whose last item"),  # the dense trace-back's choice
        ("max_q", "least costly optimal subset"),  # the Pareto form's choice
        ("max_q", "rounded to 9 decimals"),
        ("csa", "ties to the earlier start, then the one found first"),
        ("dep", "the earliest start, then the window met first"),  # the AEP default
    ],
)
def test_the_rules_docs_algorithms_states(name: str, needle: str) -> None:
    """Each algorithm's manifest rule carries the decisive words of docs/algorithms.md."""
    assert needle in tie_rule(name)
