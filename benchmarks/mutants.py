"""Mutants of the independent implementations (benchmarks/independent/): one realistic bug each.

A mutant is a one-line source edit of one module of ``benchmarks/independent``
(``old`` → ``new``, ``old`` occurring exactly once), applied to a copy of the
folder; the copy's ``ALGORITHM.py`` is then the program under test. planner's
own source is never touched. ``equivalent`` holds the argument, for a mutant
that cannot change the value of the algorithm's criterion on any job, why no
run can catch it without ``--strict`` (docs/verify.md, "Measuring the
verifier's power").
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

INDEPENDENT = Path(__file__).resolve().parent / "independent"


@dataclass(frozen=True)
class Mutant:
    """One planted bug: its name, the algorithm run, the module edited and the edit."""

    name: str
    algorithm: str
    bug: str
    module: str
    old: str
    new: str
    equivalent: str = ""


MUTANTS: tuple[Mutant, ...] = (
    # AMP (first_fit.py, common.py through amp.py)
    Mutant("amp-budget-lt", "amp", "`<` for `<=` on the budget", "first_fit.py",
           "sum(c for c, _ in chosen) <= S", "sum(c for c, _ in chosen) < S"),
    Mutant("amp-slot-length", "amp", "off-by-one on a slot's length: alive while e - T > d",
           "common.py", "x.end - T >= level.length(x)", "x.end - T > level.length(x)"),
    Mutant("amp-release", "amp", "a forgotten release (slots not clipped to it)", "common.py",
           "lo = s if job.release is None else max(s, job.release)", "lo = s"),
    Mutant("amp-read-order", "amp", "the first n alive slots in read order, not the n cheapest",
           "common.py", "alive.sort()", "alive.sort(key=lambda a: a[1])"),
    Mutant("amp-unclipped-sort", "amp", "slots sorted by their unclipped start", "common.py",
           "out.sort(key=lambda x: (x.start, x.node.order))",
           "out.sort(key=lambda x: (x.edge_start, x.node.order))",
           equivalent="clipping moves only starts before the release, all to the release, so "
           "the two orders differ only among slots read at the same T; AMP's window starts at "
           "the first T whose last step fits (a superset of every earlier step's alive set at "
           "T, so no dearer n cheapest): the same T, a tie."),
    Mutant("amp-square-own", "amp", "square geometry: each task as long as on its own node",
           "common.py", "return [max(d)] * len(d) if inst.geometry == \"square\" else d",
           "return d"),
    Mutant("amp-derived-budget-float", "amp", "S = floor(C·V·n) computed in floating point",
           "common.py", "math.floor(job.max_price * job.volume * job.n)",
           "math.floor(float(job.max_price) * float(job.volume) * job.n)"),
    Mutant("amp-wrong-tie", "amp", "a wrong tie: equal-cost slots taken latest read first",
           "common.py", "alive.sort()", "alive.sort(key=lambda a: (a[0], -a[1]))",
           equivalent="AMP's criterion is the start; at the step where the planted window "
           "fits, the n cheapest by (cost, later read first) cost the same total as by "
           "(cost, read index), so they fit S at the same step and the window starts at the "
           "same T: a tie at every job."),
    # ALP
    Mutant("alp-cap-float", "alp", "the derived cap C = S/(V·n) computed in floating point",
           "common.py", "return Fraction(job.budget) / (job.volume * job.n)",
           "return job.budget / (float(job.volume) * job.n)"),
    Mutant("alp-with-budget", "alp", "ALP also bound by the budget S (AMP over capped slots)",
           "first_fit.py", "S = None if alp else budget(job)", "S = budget(job)"),
    Mutant("alp-cap-lt", "alp", "`<` for `<=` on the price cap", "common.py",
           "if cap is not None and price > cap:", "if cap is not None and price >= cap:"),
    # min_cost
    Mutant("min_cost-cost-floor", "min_cost", "rounding down: cost = floor(price · d)",
           "common.py", "return math.ceil(price * d)", "return math.floor(price * d)"),
    Mutant("min_cost-duration-floor", "min_cost", "rounding down: d = floor(V / p)",
           "common.py", "return max(1, math.ceil(volume / perf))",
           "return max(1, math.floor(volume / perf))"),
    Mutant("min_cost-first-window", "min_cost", "keeps the first window found, never a better",
           "aep.py", "best = (key, step.T, chosen)", "best = best or (key, step.T, chosen)"),
    Mutant("min_cost-every-step", "min_cost", "evaluates every step, not once per start",
           "aep.py", "if exact and not step.last_at_T:", "if False:",
           equivalent="the slots read at one T only add to the alive set (T does not move, "
           "so none dies), so the last step at T has the least cost of the n cheapest over "
           "all steps at T (square: a window met at an earlier step is alive at the last "
           "step of its slowest slot's level, valued no more there); an earlier step can "
           "only equal it, so the best (cost, T) is the same: a tie at every job."),
    # min_runtime
    Mutant("min_runtime-swap-le", "min_runtime", "swaps a spare as long as L (`<=` for `<`)",
           "swap.py", "if slots[i].d < slots[li].d and", "if slots[i].d <= slots[li].d and",
           equivalent="spares come in (cost, read index) order, so a spare costs no less than "
           "any result slot; one as long as L that replaces it becomes the longest, dearest "
           "result slot (or ties one of equal length and cost), so every later test sees the "
           "same total minus L's cost: the result keeps the same (length, cost) multiset, the "
           "same runtime at every step, a tie."),
    Mutant("min_runtime-swap-tie", "min_runtime",
           "a wrong tie: of equally long result slots the cheapest is swapped out", "swap.py",
           "(slots[result[a][1]].d, result[a][0], result[a][1])",
           "(slots[result[a][1]].d, -result[a][0], result[a][1])",
           equivalent="the runtime drops below the longest length D only once every result "
           "slot of length D is replaced; each spare costs no less than any result slot, so "
           "the total after replacing all of them is the same in either order and no "
           "intermediate total exceeds it, and when the cheapest-first order fails a test, "
           "replacing them all would exceed S in the dearest-first order too: the same "
           "runtime at every step, a tie."),
    Mutant("min_runtime-spare-skip", "min_runtime",
           "off-by-one: the spares start one past the n cheapest", "swap.py",
           "for c, i in step.alive[n:]:", "for c, i in step.alive[n + 1:]:"),
    Mutant("min_runtime-swap-budget-lt", "min_runtime", "`<` for `<=` on the swap's budget",
           "swap.py", "total - lc + c <= S", "total - lc + c < S"),
    Mutant("min_runtime-square-swap", "min_runtime",
           "swaps in the square geometry too (step 2 forgotten)", "swap.py",
           "if inst.geometry == \"square\":", "if inst.geometry == \"never\":",
           equivalent="a swapped window's runtime is the duration D' of its slowest node p'; "
           "at the same T the level p' admits all its slots (alive, costing no more at D'), "
           "so there the n cheapest fit S and last at most D': planner reaches the same "
           "least (runtime, T) without swapping, a tie."),
    # min_finish
    Mutant("min_finish-deadline", "min_finish", "a forgotten deadline", "common.py",
           "hi = e if job.deadline is None else min(e, job.deadline)", "hi = e"),
    Mutant("min_finish-by-runtime", "min_finish", "keeps the best window by runtime",
           "min_finish.py", "from swap import finish, swap",
           "from swap import runtime as finish, swap"),
    Mutant("min_finish-slot-length", "min_finish",
           "off-by-one on a slot's length: alive while e - T >= d - 1",
           "common.py", "x.end - T >= level.length(x)", "x.end - T >= level.length(x) - 1"),
    # max_q
    Mutant("max_q-dp-budget", "max_q", "off-by-one on the knapsack's budget axis (S - 1)",
           "max_q.py", "cap = min(S, sum(sorted(c)[-n:]))",
           "cap = min(S - 1, sum(sorted(c)[-n:]))"),
    Mutant("max_q-best-n-unchecked", "max_q",
           "the budget-free best n taken without the budget test", "max_q.py",
           "if S is None or sum(c[a] for a in best_n) <= S:", "if True:"),
    Mutant("max_q-level-cost", "max_q",
           "square geometry: item costs at the slot's own duration, not the level's",
           "common.py", "alive.append((cost(x.price, level.length(x)), j))",
           "alive.append((cost(x.price, x.d), j))"),
    Mutant("max_q-trace-le", "max_q", "a wrong tie: the knapsack records a take on `<=`",
           "max_q.py", "if v < row[b]:", "if v <= row[b]:",
           equivalent="f is the same table (min is min); with `<=` a take is recorded only "
           "where taking reaches f(b, k), so the trace-back still returns a subset of the "
           "optimal Σq (another of the equally good ones): the same value, a tie."),
)  # fmt: skip


def materialise(mutant: Mutant | None, folder: Path) -> Path:
    """Copy benchmarks/independent into ``folder`` with ``mutant`` applied (None: unchanged);
    return the path of the algorithm's program. Raises ValueError when the edit does not
    apply exactly once (a mutant that silently changed nothing would be counted as killed
    or survived for nothing)."""
    folder.mkdir(parents=True, exist_ok=True)
    for src in INDEPENDENT.glob("*.py"):
        shutil.copy(src, folder / src.name)
    if mutant is None:
        return folder
    path = folder / mutant.module
    text = path.read_text(encoding="utf-8")
    if text.count(mutant.old) != 1:
        raise ValueError(f"{mutant.name}: {mutant.old!r} occurs {text.count(mutant.old)} times "
                         f"in {mutant.module}, not once")  # fmt: skip
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
    return folder
