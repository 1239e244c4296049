"""Tests of planner.deadline: one deadline per solve, asked by every stage, and the shares
that cut a stage's own deadline from it (docs/exact-models.md, "Time budget")."""

from __future__ import annotations

import math

import pytest

from planner.deadline import DEFAULT_TIME_LIMIT, Deadline, Share


class FakeClock:
    """A clock that moves only when told (seconds)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_deadline_counts_down_and_passes() -> None:
    """Left, passed and elapsed follow the clock from the start of the budget."""
    clock = FakeClock()
    d = Deadline(10.0, clock=clock)
    assert (d.left(), d.passed(), d.elapsed()) == (10.0, False, 0.0)
    clock.now += 4.0
    assert (d.left(), d.passed(), d.elapsed()) == (6.0, False, 4.0)
    clock.now += 7.0
    assert (d.left(), d.passed()) == (0.0, True)  # never below 0


@pytest.mark.parametrize(
    ("limit", "left", "passed"),
    [
        (None, None, False),  # no limit: never passes
        (math.inf, None, False),  # infinity is no limit
        (0.0, 0.0, True),  # nothing to spend: passed at once
        (-5.0, 0.0, True),  # a negative limit is no time, not an error
        (0.5, 0.5, False),  # under a second is a limit
    ],
)
def test_limits_of_every_kind(limit: float | None, left: float | None, passed: bool) -> None:
    """None and infinity mean no limit; 0 or less has passed at once."""
    d = Deadline(limit, clock=FakeClock())
    assert d.left() == left and d.passed() is passed


def test_nan_is_refused() -> None:
    """A NaN limit is an error naming the rule, not a deadline that never (or always) passes."""
    with pytest.raises(ValueError, match="not NaN"):
        Deadline(math.nan)


def test_of_takes_seconds_or_a_deadline() -> None:
    """``Deadline.of`` passes a deadline through and turns seconds (or None) into one."""
    d = Deadline(5.0)
    assert Deadline.of(d) is d
    assert Deadline.of(None).end is None
    assert Deadline.of(3.0).limit == 3.0


@pytest.mark.parametrize(
    ("limit", "elapsed", "share", "left"),
    [
        (None, 0.0, Share(most=0.03), None),  # no limit: the stage runs to its own end
        (100.0, 0.0, Share(most=0.03), 3.0),  # ample time: 3 % of the limit
        (100.0, 10.0, Share(by=0.55), 45.0),  # ends once 55 % of the limit has passed
        (100.0, 60.0, Share(by=0.55), 0.0),  # that mark is behind: nothing
        (100.0, 50.0, Share(by=0.7, most=0.15), 15.0),  # the shorter of the two
        (100.0, 65.0, Share(by=0.7, most=0.15), 5.0),
        (600.0, 582.0, Share(most=0.03), 18.0),  # less left than the share: what is left
        (600.0, 600.5, Share(most=0.03), 0.0),  # past the deadline: none
        (100.0, 60.0, Share(by=0.1, least=0.01), 1.0),  # its mark is behind: its least
        (100.0, 99.5, Share(by=0.1, least=0.01), 0.5),  # the least, cut to the deadline
    ],
)
def test_a_stage_never_runs_past_its_share_or_the_deadline(
    limit: float | None, elapsed: float, share: Share, left: float | None
) -> None:
    """A stage's deadline is the earliest of its ``by`` mark, ``most`` from now and the whole
    deadline (a 600 s Σ finish run once ended 8 s late when a stage took its share whatever
    was left)."""
    clock = FakeClock()
    d = Deadline(limit, clock=clock)
    clock.now += elapsed
    stage = d.stage(share)
    assert stage.left() == (None if left is None else pytest.approx(left))
    assert stage.end is None or d.end is None or stage.end <= d.end


def test_rest_and_within() -> None:
    """``rest`` begins a budget now with what is left (its shares are parts of that);
    ``within`` caps a deadline at some seconds from now."""
    clock = FakeClock()
    d = Deadline(60.0, clock=clock)
    clock.now += 20.0
    rest = d.rest()
    assert (rest.limit, rest.elapsed(), rest.end) == (40.0, 0.0, d.end)
    assert rest.stage(Share(by=0.5)).left() == 20.0  # half of the 40 s given
    assert d.within(5.0).left() == 5.0 and d.within(500.0).left() == 40.0
    assert d.within(None) is d
    assert d.early(1.5).left() == 38.5 and Deadline(None).early(1.5).end is None
    assert Deadline(None).rest().end is None


@pytest.mark.parametrize(
    "fields",
    [
        {"by": -0.1},  # a mark before the start
        {"by": 1.5},  # a mark after the deadline
        {"most": 2.0},  # more than the whole limit
        {"least": -0.5},  # a negative floor
    ],
)
def test_a_share_is_a_fraction(fields: dict[str, float]) -> None:
    """A share outside [0, 1] is a ValueError naming the field."""
    with pytest.raises(ValueError, match=next(iter(fields))):
        Share(**fields)


def test_the_default_limit_is_written_once() -> None:
    """The CLI, the façades and the cluster solvers all take the one default."""
    import inspect

    from models.cluster import solve_snapshot, solve_snapshot_cg
    from models.cluster.milp import solve_snapshot_milp
    from models.cluster.snapshot import solve_snapshot_cpsat
    from models.progress import DEFAULT_TIME_LIMIT as MODELS_DEFAULT
    from planner.cli.common import DEFAULT_TIME_LIMIT as CLI_DEFAULT

    assert MODELS_DEFAULT is DEFAULT_TIME_LIMIT and CLI_DEFAULT is DEFAULT_TIME_LIMIT
    for fn in (solve_snapshot, solve_snapshot_cg, solve_snapshot_milp, solve_snapshot_cpsat):
        assert inspect.signature(fn).parameters["time_limit"].default is DEFAULT_TIME_LIMIT


@pytest.mark.parametrize(
    ("limit", "ms", "more_than_1s"),
    [
        (None, 0, True),  # no limit: OR-Tools' 0 ("none"), and always time left
        (2.5, 2500, True),
        (0.4, 400, False),
        (0.0, 1, False),  # passed: the least positive limit, never 0 (which means none)
    ],
)
def test_what_solvers_are_told(limit: float | None, ms: int, more_than_1s: bool) -> None:
    """Milliseconds for GLOP and SCIP (0 only without a limit), and whether a step that needs
    a second may start (a no-limit deadline once read as 1 ms left and stopped GLOP)."""
    d = Deadline(limit, clock=FakeClock())
    assert d.milliseconds() == ms and d.more_than(1.0) is more_than_1s
