"""The components a study runs: instance source, heuristics, exact solver, checker.

The runner never imports them directly; it receives a :class:`Toolkit`, so a
test can inject a fake family, a fake or deliberately broken heuristic or a
fake solver. Every field is a module-level function so a toolkit pickles for
process pools and Dask workers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from instances.errors import did_you_mean


def default_generate(family: str, seed: int, **params: Any) -> Any:
    """``instances.generate``."""
    from instances import generate

    return generate(family, seed, **params)


def default_algorithms() -> dict[str, str | None]:
    """Return every ``planner.ALGORITHMS`` entry: name → criterion (None: the job's).

    Entries marked exact over the AEP space are included: the study checks that claim.
    """
    from planner import ALGORITHMS

    return {name: a.criterion for name, a in ALGORITHMS.items()}


def default_search(instance: Any, job: Any, algorithm: str, seed: int) -> Any:
    """``planner.search`` on the instance's slots."""
    from planner import search

    return search(instance, job, algorithm, seed=seed)


class SolveInterrupted(KeyboardInterrupt):
    """An exact solve stopped early without a time limit: the solver caught Ctrl-C.

    A solver that handles SIGINT itself (CBC and HiGHS run as child processes, which
    receive Ctrl-C too; CP-SAT would, but :func:`models.backends.run_cpsat` turns it
    into KeyboardInterrupt) stops the search and returns an unproven result; recording
    it would store a wrong row for good (resume skips finished instances).
    """


def default_solve(
    instance: Any, job: Any, criterion: str, solver: str, time_limit: float | None, threads: int,
    free_start: bool = False,
) -> Any:  # fmt: skip
    """``models.solve_window`` (AEP start space unless ``free_start``).

    Raises
    ------
    SolveInterrupted
        The solver returned neither ``optimal`` nor ``infeasible`` without a time limit.
    """
    import models

    res = models.solve_window(
        instance, job, criterion, solver,
        free_start=free_start, time_limit=time_limit, threads=threads,
    )  # fmt: skip
    if time_limit is None and res.status not in ("optimal", "infeasible"):
        raise SolveInterrupted(
            f"the {solver} solve of job {job.id} stopped unproven ({res.status}) without a "
            "time limit: interrupted; rerun the same command to resume"
        )
    return res


def default_check(instance: Any, job: Any, window: Any, *, price_cap: bool = False) -> list[str]:
    """``validation.check_window`` (``price_cap``: ALP's per-slot cap replaces the budget)."""
    from validation.check import check_window

    return check_window(instance, job, window, price_cap=price_cap)


def default_solvers() -> tuple[str, ...]:
    """Return the ``models.SOLVERS`` names."""
    from models import SOLVERS

    return tuple(SOLVERS)


def default_check_params(family: str, params: dict[str, Any]) -> None:
    """Raise a one-line ValueError for an unknown family or parameter (nothing is generated)."""
    from instances import FAMILIES

    if family not in FAMILIES:
        raise ValueError(f"unknown family '{family}'{did_you_mean(family, FAMILIES)} "
                         f"(choose from: {', '.join(FAMILIES)})")  # fmt: skip
    FAMILIES[family].check_params(params)


@dataclass(frozen=True)
class Toolkit:
    """The injectable components of a study (defaults: the package's registries).

    Parameters
    ----------
    generate
        ``generate(family, seed, **params) -> Instance``.
    algorithms
        ``algorithms() -> {name: criterion or None}`` (None: each job's criterion).
    search
        ``search(instance, job, algorithm, seed) -> Window | None``.
    solve
        ``solve(instance, job, criterion, solver, time_limit, threads, free_start) -> Result``.
    check
        ``check(instance, job, window) -> list of violated rules``.
    solvers
        ``solvers() -> names`` accepted as ``StudySpec.solver``.
    check_params
        ``check_params(family, params)``: ValueError for a bad family or parameter.
    """

    generate: Callable[..., Any] = default_generate
    algorithms: Callable[[], dict[str, str | None]] = default_algorithms
    search: Callable[..., Any] = default_search
    solve: Callable[..., Any] = default_solve
    check: Callable[..., list[str]] = default_check
    solvers: Callable[[], tuple[str, ...]] = default_solvers
    check_params: Callable[[str, dict[str, Any]], None] = default_check_params


DEFAULT_TOOLKIT = Toolkit()
