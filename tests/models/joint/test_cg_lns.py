"""Large-neighbourhood search of the ``cg`` joint solver (models/joint/cg/lns.py) on tiny
batches: valid, never worse, same placed count, side limits kept, the brute-force optimum
when one neighbourhood holds every job, and repeatable for a fixed seed."""

from __future__ import annotations

import dataclasses

import pytest

from instances import Instance, Slot, generate
from models import solve_joint
from models.joint.cg import solve as cg_solve
from models.joint.cg import state as cg_state
from models.joint.cg.column import Column
from models.joint.cg.integer import integer_master
from models.joint.cg.lns import lns
from models.joint.cg.repair import _fits
from models.joint.space import JobSpace, Option
from planner import Window, make_window
from planner.deadline import Deadline
from tests.joint_batch import gap_case
from validation import check_alternatives
from validation.joint_brute import all_windows, brute_joint, value

CASES = 16


def case(seed: int) -> tuple[Instance, list[JobSpace], str, list[tuple[str, int]], bool]:
    """Return a 4-job tiny batch (geometry, objective, side limit and start rule rotated),
    its job spaces, the objective, the side rows and whether starts are free."""
    geometry = ("rough", "square")[seed % 2]
    inst = dataclasses.replace(generate("tiny", 700 + seed, jobs=4), geometry=geometry)
    metric = ("finish", "cost", "proc_time", "runtime", "start")[seed % 5]
    sides = [] if seed % 3 == 0 else [(("proc_time", "cost")[seed % 2], 8 + 4 * (seed % 5))]
    return inst, [JobSpace(inst, job) for job in inst.jobs], metric, sides, seed % 4 != 3


def every_column(inst: Instance, spaces: list[JobSpace], free: bool) -> list[Column]:
    """Return every window of every job (brute force) as a column of its job space."""
    out = []
    for j, job in enumerate(inst.jobs):
        for w in all_windows(inst, job, free_start=free):
            chosen = [spaces[j].option_of(p.node, p.start, p.end) for p in w.placements]
            assert None not in chosen
            out.append(Column.build(j, spaces[j], w.start, [k for k in chosen if k is not None]))
    return out


def poor_start(
    spaces: list[JobSpace], columns: list[Column], metric: str, sides: list[tuple[str, int]]
) -> list[Column]:
    """Return the worst solution with the most placed jobs (the integer master maximising)."""
    most = integer_master(len(spaces), columns, None, 1, sides)
    assert most is not None
    worst = integer_master(len(spaces), columns, metric, -1, sides, count=len(most))
    assert worst is not None
    return worst


def windows_of(inst: Instance, spaces: list[JobSpace], columns: list[Column]) -> list[Window]:
    """Return the columns as windows of the instance (tasks in the options' free slots)."""
    return [make_window(inst, inst.jobs[c.j], c.T,
                        [spaces[c.j].options[k].host for k in c.chosen]) for c in columns]


def total(columns: list[Column], metric: str) -> int:
    """Return Σ metric over the columns."""
    return sum(c.metric(metric) for c in columns)


@pytest.mark.parametrize("seed", range(CASES))
def test_every_step_is_a_valid_solution_no_worse_with_the_same_count(seed: int) -> None:
    """Neighbourhoods of 2 jobs, 1 to 4 rounds (the runs share their prefix): after each,
    the columns pass the joint checker, one per job, as many as at the start, within the
    side limits and never worse than the previous round."""
    inst, spaces, metric, sides, free = case(seed)
    start = poor_start(spaces, every_column(inst, spaces, free), metric, sides)
    last = total(start, metric)
    for rounds in range(1, 5):
        got = lns(spaces, start, metric, 1, sides, free_start=free, seed=seed, rounds=rounds,
                  size=2)
        assert check_alternatives(inst, windows_of(inst, spaces, got.columns),
                                  sequential=False) == []
        assert len({c.j for c in got.columns}) == len(got.columns) == len(start)
        assert all(total(got.columns, name) <= limit for name, limit in sides)
        assert got.value == total(got.columns, metric) <= last
        last = got.value
        if not free:
            assert all(c.T in spaces[c.j].slot_starts for c in got.columns)


@pytest.mark.parametrize("seed", range(CASES))
def test_one_neighbourhood_of_every_job_reaches_the_brute_force_optimum(seed: int) -> None:
    """From the worst solution at the most placed jobs, a neighbourhood holding every job
    reaches the brute-force optimum in one round and says nothing better exists."""
    inst, spaces, metric, sides, free = case(seed)
    start = poor_start(spaces, every_column(inst, spaces, free), metric, sides)
    windows = [all_windows(inst, job, free_start=free) for job in inst.jobs]
    rows = [(lambda w, name=name: value(w, name), limit) for name, limit in sides]
    placed, best = brute_joint(windows, lambda w: value(w, metric), "min", rows)
    assert len(start) == placed
    got = lns(spaces, start, metric, 1, sides, free_start=free, seed=seed, rounds=1,
              size=len(spaces))
    assert got.exhausted and got.value == best
    assert check_alternatives(inst, windows_of(inst, spaces, got.columns),
                              sequential=False) == []


def test_a_maximised_objective_is_improved_upwards() -> None:
    """sign −1 (maximise Σ cost, the placed count fixed): the value found is the negated
    brute-force maximum at that count."""
    inst, spaces, _, sides, free = case(1)
    start = poor_start(spaces, every_column(inst, spaces, free), "proc_time", sides)
    windows = [all_windows(inst, job, free_start=free) for job in inst.jobs]
    rows = [(lambda w, name=name: value(w, name), limit) for name, limit in sides]
    _, best = brute_joint(windows, lambda w: value(w, "cost"), "max", rows)
    got = lns(spaces, start, "cost", -1, sides, free_start=free, rounds=1, size=len(spaces))
    assert got.value == -best == -total(got.columns, "cost")


def test_the_same_seed_gives_the_same_search() -> None:
    """A css2015 batch of 8 jobs, 5 neighbourhoods of 3 jobs: two runs with seed 4 return
    the same columns and counts."""
    inst = generate("css2015", 2)
    jobs = list(inst.jobs[:8])
    spaces = [JobSpace(inst, job) for job in jobs]
    start = poor_start(spaces, singles(spaces), "finish", [])
    runs = [lns(spaces, start, "finish", 1, [], seed=4, rounds=5, size=3, patience=None)
            for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].rounds == 5
    assert runs[0].value <= total(start, "finish")


def test_the_search_stops_after_patience_neighbourhoods_without_a_gain() -> None:
    """No deadline and no round limit: the search on 8 css2015 jobs ends once 3
    neighbourhoods in a row have not improved (and never with fewer)."""
    inst = generate("css2015", 2)
    spaces = [JobSpace(inst, job) for job in inst.jobs[:8]]
    start = poor_start(spaces, singles(spaces), "finish", [])
    got = lns(spaces, start, "finish", 1, [], seed=4, size=2, patience=3)
    assert not got.exhausted and got.stale == 3 and got.rounds >= 3
    assert got.value <= total(start, "finish")


def singles(spaces: list[JobSpace]) -> list[Column]:
    """Return each job's earliest window on the first n options that fit at a slot start."""
    out = []
    for j, sp in enumerate(spaces):
        for t in sp.slot_starts:
            chosen: dict[str, int] = {}
            for k, o in enumerate(sp.options):
                if o.slot.start <= t <= o.slot.end - o.d and (not sp.square or o.exact):
                    chosen.setdefault(o.node, k)
            if len(chosen) >= sp.n:
                col = Column.build(j, sp, t, list(chosen.values())[: sp.n])
                if sp.budget is None or col.cost <= sp.budget:
                    out.append(col)
    return out


def test_a_passed_deadline_returns_the_incumbent() -> None:
    """A deadline already passed: no neighbourhood is solved and the incumbent comes back."""
    inst, spaces, metric, sides, free = case(0)
    start = poor_start(spaces, every_column(inst, spaces, free), metric, sides)
    got = lns(spaces, start, metric, 1, sides, free_start=free, deadline=Deadline(0.0))
    assert got.rounds == 0 and got.columns == start and got.value == total(start, metric)


def test_a_neighbourhood_starts_only_with_the_longest_one_so_far_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fake clock; each neighbourhood takes 4 s of it. With a 10 s limit the search solves
    two (at 0 s and 4 s) and stops at 8 s, when 2 s are left: it starts no neighbourhood
    it could not finish before the deadline."""
    import models.joint.cg.lns as lns_module

    now = [0.0]

    def slow_repair(*args: object, **kwargs: object) -> tuple[str, None]:
        now[0] += 4.0
        return "feasible", None

    monkeypatch.setattr(lns_module, "repair", slow_repair)
    inst, spaces, metric, sides, free = case(1)
    start = poor_start(spaces, every_column(inst, spaces, free), metric, sides)
    got = lns(spaces, start, metric, 1, sides, free_start=free, patience=None,
              deadline=Deadline(10.0, began=0.0, clock=lambda: now[0]))  # fmt: skip
    assert got.rounds == 2 and now[0] == 8.0 and got.columns == start


def test_a_deadline_passing_while_the_model_is_built_stops_the_repair() -> None:
    """A deadline that has passed before the first job's part of the model is built: the
    repair returns status unknown and no columns, without calling CP-SAT."""
    from models.joint.cg.repair import repair

    inst, spaces, metric, sides, free = case(2)
    start = poor_start(spaces, every_column(inst, spaces, free), metric, sides)
    cols = {c.j: c for c in start}
    got = repair(spaces, cols, set(cols), metric, 1, sides, free_start=free,
                 deadline=Deadline(0.0))  # fmt: skip
    assert got == ("unknown", None)


@pytest.mark.parametrize(
    ("d", "busy", "fits"),
    [
        (3, [(2, 5), (7, 9)], False),  # free gaps [0, 2), [5, 7), [9, 10): none of length 3
        (2, [(2, 5), (7, 9)], True),  # [0, 2) holds it
        (3, [(7, 9), (-5, 1)], True),  # unsorted; [1, 7) holds it
        (10, [(10, 12), (-3, 0)], True),  # busy time touching the slot's ends only
        (4, [(0, 7)], False),  # only [7, 10) is left: 3 long
        (3, [(0, 7)], True),  # [7, 10) holds it exactly
    ],
)
def test_an_option_fits_between_busy_intervals(
    d: int, busy: list[tuple[int, int]], fits: bool
) -> None:
    """A task of length d fits in the slot [0, 10) of node a when some gap between the
    busy intervals (clipped to the slot) is at least d long."""
    slot = Slot("a", 0, 10)
    option = Option(slot, "a", d, 0, 1.0, 0, True, slot)
    assert _fits(option, busy) is fits


@pytest.mark.parametrize("seed", [1, 5, 10, 15, 18, 20])  # count-stage incumbents not optimal
def test_the_cg_solver_takes_the_search_s_incumbent(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cg solver with its integer master disabled at the fixed count (only the count
    stage's incumbent, worse than the optimum here): the search after it reaches the
    brute-force optimum, and the result is that optimum, proven, with windows that pass
    the joint checker (no early listing, which would give the search's time to SCIP)."""
    real = cg_state.integer_master
    monkeypatch.setattr(cg_solve, "EARLY_LIMIT", 0)

    def count_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        return None if kwargs.get("count") is not None else real(*args, **kwargs)

    monkeypatch.setattr(cg_state, "integer_master", count_only)
    inst, objective, free = gap_case(seed)
    assert isinstance(objective, str)
    r = solve_joint(inst, objective, "cg", free_start=free)
    windows = [all_windows(inst, job, free_start=free) for job in inst.jobs]
    placed, best = brute_joint(windows, lambda w: value(w, objective), "min")
    assert r.status == "optimal" and (len(r.info["placed"]), r.objective) == (placed, best)
    assert check_alternatives(inst, r.windows, sequential=False) == []
    search = r.info["cg"].get("lns")
    assert search is not None and search["to"] == best < search["from"]
