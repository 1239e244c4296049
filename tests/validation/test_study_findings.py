"""Findings of study reports: intervals against known values, statements on hand-built rows."""

from __future__ import annotations

import random

import pytest
from scipy import stats

from validation.study.engine.findings import findings, markdown, text
from validation.study.engine.intervals import (
    bootstrap_mean,
    holm,
    sign_test,
    smallest_sign_p,
    wilson,
)
from validation.study.engine.observations import Measure, Observation
from validation.study.engine.tables import WIDTH, render


@pytest.mark.parametrize("k, n", [
    (0, 10),    # none: the interval still has a width (rule-of-three-like upper end)
    (10, 10),   # all: the lower end is informative
    (16, 45),   # a miss rate from the quick study
    (1, 2),     # tiny sample
    (390, 1000),
])  # fmt: skip
def test_wilson_matches_scipy(k: int, n: int) -> None:
    """The Wilson interval equals scipy's binomtest(...).proportion_ci(method="wilson")."""
    ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)


def test_wilson_hand_computed() -> None:
    """0 of 10: [0, z²/(n + z²)] = [0, 0.2775]; 45 of 45: lower end 0.9213."""
    assert wilson(0, 10) == (0.0, pytest.approx(0.27753, abs=1e-5))
    assert wilson(45, 45)[0] == pytest.approx(0.92135, abs=1e-5)


@pytest.mark.parametrize("k, n", [
    (1, 0),    # no trials
    (-1, 5),   # negative count
    (6, 5),    # more successes than trials
])  # fmt: skip
def test_wilson_rejects_impossible_rates(k: int, n: int) -> None:
    """An impossible rate is a one-line ValueError."""
    with pytest.raises(ValueError, match="0 <= k <= n"):
        wilson(k, n)


def test_bootstrap_is_seeded_and_matches_scipy() -> None:
    """Same seed, same interval; close to scipy's percentile bootstrap; constant data: no width."""
    values = [0.0] * 30 + [1.0, 2.0, 3.0, 5.0, 8.0, 13.0]
    assert bootstrap_mean(values, seed=7) == bootstrap_mean(values, seed=7)
    lo, hi = bootstrap_mean(values, seed=7, resamples=20000)
    ref = stats.bootstrap((values,), lambda x: x.mean(), method="percentile",
                          n_resamples=20000, random_state=1).confidence_interval  # fmt: skip
    assert lo == pytest.approx(ref.low, abs=0.08) and hi == pytest.approx(ref.high, abs=0.12)
    assert lo < sum(values) / len(values) < hi
    assert bootstrap_mean([2.5, 2.5, 2.5], seed=0) == (2.5, 2.5)


def test_bootstrap_rejects_empty() -> None:
    """No values, no interval."""
    with pytest.raises(ValueError, match="at least one value"):
        bootstrap_mean([], seed=0)


@pytest.mark.parametrize("diffs", [
    [1.0] * 10,                       # all positive: p = 2 / 1024
    [1.0] * 7 + [-1.0] * 3,           # mixed
    [0.0, 0.0, 2.0, -1.0, 3.0, 4.0],  # ties are dropped
])  # fmt: skip
def test_sign_test_matches_scipy(diffs: list[float]) -> None:
    """The sign test's p-value is scipy's two-sided binomial test on the non-tied signs."""
    p, pos, neg = sign_test(diffs)
    assert p == pytest.approx(stats.binomtest(pos, pos + neg, 0.5).pvalue)
    assert smallest_sign_p(3) == 0.25 and sign_test([0.0, 0.0]) == (1.0, 0, 0)


def test_holm_hand_computed() -> None:
    """Holm: sorted p times (m - rank), made monotone: [0.01, 0.04, 0.03] -> [0.03, 0.06, 0.06]."""
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def _rows() -> list[Observation]:
    """Group "g": exact is always 0; worse is 1 above on 10 units; close differs on 3 of them."""
    obs = []
    for u in range(10):
        obs.append(Observation("g", "exact", str(u), 0.0))
        obs.append(Observation("g", "worse", str(u), 1.0 + u / 10))
        obs.append(Observation("g", "close", str(u), 1.0 + u / 10 + (0.5 if u < 2 else 0.0)
                               - (0.5 if u == 2 else 0.0)))  # fmt: skip
    obs.append(Observation("g", "misser", "0", None, missed=True))
    obs.append(Observation("g", "misser", "1", 0.0))
    return obs


def test_findings_name_optimal_worst_misses_and_differences() -> None:
    """Always-optimal subject with n, worst mean gap with its interval, the miss rate, a
    significant pair (exact vs worse) and a non-significant one (close vs worse)."""
    out = findings(_rows(), Measure("gap", "u"), seed=3)
    joined = "\n".join(out)
    assert "on every measured row: exact (n = 10)" in joined
    worst = next(s for s in out if s.startswith("Largest mean gap"))
    assert "close on g" in worst and "gap 1.50 u" in worst and "n = 10" in worst
    lo, hi = bootstrap_mean([1.0 + u / 10 + (0.5 if u < 2 else 0) - (0.5 if u == 2 else 0)
                             for u in range(10)], seed=0)  # fmt: skip
    assert "95% CI [" in worst
    assert any("misser on g: no answer in 1 of 2 rows" in s for s in out)
    diff = next(s for s in out if "(differs)" in s and "exact − worse" in s)
    assert "higher on 0, lower on 10" in diff
    closest = next(s for s in out if "not significant" in s)
    assert "close − worse" in closest and "higher on 2, lower on 1" in closest
    assert "no sign test can go below p = 0.25" in closest
    assert lo < hi


def test_findings_are_deterministic_and_order_free() -> None:
    """Same rows, same text; shuffled rows (another row order), same text."""
    rows = _rows()
    first = text(findings(rows, Measure("gap"), seed=0))
    shuffled = rows[:]
    random.Random(1).shuffle(shuffled)
    assert text(findings(shuffled, Measure("gap"), seed=0)) == first
    assert text(findings(rows, Measure("gap"), seed=0)) == first
    md = markdown(findings(rows, Measure("gap")), ["a note"])
    assert md.startswith("## Findings\n\n- a note\n")


def test_lower_is_better_measure_reports_ties_and_best() -> None:
    """Without an optimum, the lowest mean per group is named (or a tie stated)."""
    obs = [Observation("w", p, str(s), v) for s in range(4)
           for p, v in (("fcfs", 3.0 + s), ("easy", 1.0 + s), ("cons", 1.0 + s))]  # fmt: skip
    out = findings(obs, Measure("slowdown", optimum=False))
    assert out[0] == "Lowest slowdown on w: a tie between cons, easy (2.50, n = 4 each)."
    obs = [o for o in obs if o.subject != "cons"]
    assert findings(obs, Measure("slowdown", optimum=False))[0] == (
        "Lowest slowdown on w: easy, slowdown 2.50 (n = 4: too few values for an interval); "
        "next best 4.50.")  # fmt: skip
    many = [Observation("w", p, str(s), v) for s in range(12)
            for p, v in (("fcfs", 3.0 + s), ("easy", 1.0 + s))]  # fmt: skip
    assert findings(many, Measure("slowdown", optimum=False))[0].startswith(
        "Lowest slowdown on w: easy, slowdown 6.50 (95% CI")


def test_intervals_on_few_values_are_withheld_or_flagged() -> None:
    """Below ten values a mean is printed without its bootstrap interval, n shown; a rate's
    Wilson interval carries "only n = N"; from ten on both are printed plainly."""
    few = [Observation("", "h", str(u), v) for u, v in enumerate((0.0, 0.5, 0.0, 1.0))]
    worst = findings(few, Measure("gap"))[1]
    assert "gap 0.38 (n = 4: too few values for an interval)" in worst
    assert "optimal in 2 of 4 (50.0%, 95% CI [15.0, 85.0]%, Wilson; only n = 4)" in worst
    many = [Observation("", "h", str(u), 0.5 * (u % 2)) for u in range(10)]
    worst = findings(many, Measure("gap"))[1]
    assert "bootstrap, n = 10)" in worst and "Wilson)" in worst and "only n" not in worst


def test_an_interval_beside_a_test_that_disagrees_says_why() -> None:
    """A bootstrap interval excluding 0 beside "not significant" (a few large differences on
    many units, few units where the two differ) gets one sentence naming the two tests."""
    obs = []
    for u in range(40):  # a higher by 5 on 8 units, lower by 0.1 on 2: p = 0.109
        obs.append(Observation("", "a", str(u), 5.0 if u < 8 else 0.0 if u > 9 else 0.1))
        obs.append(Observation("", "b", str(u), 0.0 if u != 8 and u != 9 else 0.2))
    text = next(s for s in findings(obs, Measure("gap")) if "a − b" in s)
    assert "(not significant; the closest pair)" in text and "95% CI [" in text
    assert text.endswith("The interval excludes 0 although the test does not reject: they are "
                         "two tests, the interval of the mean difference over all 40 units and "
                         "the sign test on the 10 units where the two differ (8 against 2).")
    few = [Observation("", s, str(u), (5.0 if u < 5 else 0.0) if s == "a" else 0.0)
           for u in range(40) for s in "ab"]  # fmt: skip
    text = next(s for s in findings(few, Measure("gap")) if "a − b" in s)
    assert text.endswith("The interval excludes 0 although the test does not reject: with 5 "
                         "non-tied pairs no sign test can go below p = 0.0625.")


@pytest.mark.parametrize("make, rule", [
    (lambda: Measure(""), "needs a name"),                             # nameless measure
    (lambda: Measure("gap", digits=9), "digits"),                      # absurd precision
    (lambda: Observation("g", "s", "0", 1.0, missed=True), "no value"),  # a miss with a value
])  # fmt: skip
def test_invalid_inputs_are_refused(make: object, rule: str) -> None:
    """Invalid measures and observations are one-line ValueErrors naming the rule."""
    with pytest.raises(ValueError, match=rule):
        make()  # type: ignore[operator]


def test_narrow_tables_fit_100_columns() -> None:
    """Long text cells are cut with an ellipsis until the table fits; numbers are never cut."""
    rows = [["a-very-long-workload-name-" * 3, "policy-with-a-long-name", "123456.78"]] * 3
    table = render(["workload", "policy", "value"], rows, left=2, width=WIDTH)
    assert max(len(line) for line in table.splitlines()) <= WIDTH
    assert "…" in table and "123456.78" in table


def test_gap_study_narrow_table_fits(tmp_path: object) -> None:
    """The gap study's default terminal table fits 100 columns with every column populated."""
    from validation.study.gap.metrics import SUMMARY_COLUMNS
    from validation.study.gap.report import text_table

    base = dict.fromkeys(SUMMARY_COLUMNS, 0.5)
    summary = [dict(base, family=f, geometry=g, algorithm="min_proc_time_exact",
                    criterion=c, instances=9999, jobs=99999, proven=99999, gap_rows=99999,
                    unproven=0, errors=12, heuristic_ms=12345.67)
               for f in ("toporkov2012", "tiny") for g in ("rough", "square")
               for c in ("min_proc_time", "coord")]  # fmt: skip
    narrow = text_table(summary)
    assert max(len(line) for line in narrow.splitlines()) <= WIDTH
    assert max(len(line) for line in text_table(summary, wide=True).splitlines()) > WIDTH


def _gap_row(instance: int, algorithm: str, found: bool, status: str, gap: float | None,
             value: float | None = None) -> dict[str, object]:  # fmt: skip
    return {"family": "tiny", "geometry": "rough", "criterion": "min_cost", "job": "j1",
            "instance": instance, "algorithm": algorithm, "found": found,
            "exact_found": status == "optimal", "exact_status": status, "gap": gap,
            "value": value, "exact_value": value}  # fmt: skip


def test_gap_study_rows_explain_the_exact_found_share() -> None:
    """The reference note counts windows, optima and infeasible cases; an algorithm that finds
    nothing where windows exist is named, with the reason ``explain`` gives."""
    from validation.study.engine.findings import section
    from validation.study.gap.findings import gap_study

    rows = [_gap_row(0, "amp", True, "optimal", 0.0, 5.0),
            _gap_row(0, "alp", False, "optimal", None),
            _gap_row(1, "amp", False, "infeasible", None),
            _gap_row(1, "alp", False, "infeasible", None)]  # fmt: skip
    notes, measures = gap_study(rows, "cpsat", None, lambda alg, missed: f"{len(missed)} capped")
    assert "found a window in 1 of 2 (instance, job, criterion) cases (50.0%)" in notes[0]
    assert "proved 1 optimal and 1 infeasible" in notes[0]
    assert notes[1] == ("Scored against: min_cost against the exact optimum over the slot "
                        "starts (the AEP start space, where these criteria lose nothing).")
    assert notes[2] == "alp found no window in the one row where one exists: 1 capped."
    (measure, obs), = measures
    assert measure.name == "relative gap" and len(obs) == 2  # the infeasible case is left out
    md, term = section((notes, measures), reference="the exact model")
    assert md.startswith("## Findings") and term.startswith("Findings:")
