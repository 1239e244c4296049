"""Paired differences between the subjects of a Findings section (docs/studies.md, "Findings").

Within each group, every two subjects are compared on the units both measured
(instance × job, seed, snapshot): an exact sign test per pair, Holm-adjusted
over all the pairs of a measure (Holm 1979), and a seeded bootstrap interval of
the mean paired difference (Efron & Tibshirani 1993; withheld below ten pairs). Where the
two disagree (an interval excluding 0 beside "not significant", or the reverse), the
statement says why in one sentence.
"""

from __future__ import annotations

from instances.text import plural
from validation.study.engine.intervals import holm, sign_test, smallest_sign_p
from validation.study.engine.observations import (
    TOLERANCE,
    Measure,
    Observation,
    mean_interval,
    where,
)

ALPHA = 0.05
"""The significance level, after Holm's adjustment."""

Cells = dict[tuple[str, str], list[Observation]]
Test = tuple[str, str, str, list[float], float, int, int]
"""One compared pair: group, subjects a and b, paired differences a − b, p, positives, negatives."""


def differences(cells: Cells, m: Measure, seed: int, top: int) -> list[str]:
    """Return the statements on paired differences: counts, the largest significant ones and
    the non-significant pair closest to significance."""
    tests: list[Test] = []
    groups = sorted({g for g, _ in cells})
    for group in groups:
        subjects = [s for g, s in cells if g == group]
        for i, a in enumerate(subjects):
            for b in subjects[i + 1:]:
                va = {o.unit: o.value for o in cells[group, a] if o.value is not None}
                vb = {o.unit: o.value for o in cells[group, b] if o.value is not None}
                diffs = [va[u] - vb[u] for u in sorted(va.keys() & vb.keys())]
                if diffs and any(abs(d) > TOLERANCE for d in diffs):
                    p, pos, neg = sign_test(diffs)
                    tests.append((group, a, b, diffs, p, pos, neg))
    if not tests:
        return []
    adjusted = holm([t[4] for t in tests])

    def order(r: tuple[float, Test]) -> tuple[object, ...]:
        q, (group, a, b, diffs, p, pos, neg) = r
        if q < ALPHA:
            return (0, -abs(sum(diffs) / len(diffs)), group, a, b)
        return (1, q, p, -(pos + neg), group, a, b)

    rows = sorted(zip(adjusted, tests, strict=True), key=order)
    significant = [r for r in rows if r[0] < ALPHA]
    out = [f"{m.name.capitalize()}: {len(significant)} of {len(tests)} compared pairs differ "
           f"significantly (paired exact sign test on the shared units, p < {ALPHA:g} after "
           f"Holm's adjustment for {plural(len(tests), 'test')}); pairs equal on every shared "
           "unit are not counted."]  # fmt: skip
    for q, (group, a, b, diffs, _, pos, neg) in significant[:top]:
        out.append(_difference(m, seed, group, a, b, diffs, pos, neg, q, len(tests)))
    rest = [r for r in rows if r[0] >= ALPHA]
    if rest:
        q, (group, a, b, diffs, _, pos, neg) = rest[0]
        out.append(_difference(m, seed, group, a, b, diffs, pos, neg, q, len(tests)))
    return out


def _difference(m: Measure, seed: int, group: str, a: str, b: str, diffs: list[float],
                pos: int, neg: int, q: float, tests: int) -> str:  # fmt: skip
    """One compared pair: its mean difference (interval), sign counts and adjusted p; and,
    where the interval and the test disagree, why."""
    significant = q < ALPHA
    mean = sum(diffs) / len(diffs)
    label = "differs" if significant else "not significant; the closest pair"
    ci, bounds = mean_interval(m, diffs, seed, group, a, b, unit="paired")
    text = (f"{a} − {b}{where(group)} ({label}): mean difference in {m.name} {m.format(mean)} "
            f"{ci}; {a} higher on {pos}, lower on {neg}, adjusted p = {q:.3g}.")  # fmt: skip
    n = pos + neg
    floor = smallest_sign_p(n)
    few = f"with {n} non-tied pairs no sign test can go below p = {floor:.3g}"
    if bounds is not None and significant == (bounds[0] <= 0 <= bounds[1]):
        held = "includes 0 although the test rejects" if significant else (
            "excludes 0 although the test does not reject")  # fmt: skip
        adjusted = f", adjusted for {tests} tests" if tests > 1 else ""
        why = few if not significant and floor >= ALPHA else (
            f"they are two tests, the interval of the mean difference over all "
            f"{plural(len(diffs), 'unit')} and the sign test on the {plural(n, 'unit')} where "
            f"the two differ ({pos} against {neg}{adjusted})")  # fmt: skip
        text += f" The interval {held}: {why}."
    elif not significant and floor >= ALPHA:
        text += f" {few[0].upper()}{few[1:]}."
    return text
