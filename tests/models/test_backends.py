"""OR-Tools, PuLP and HiGHS in one process (models.backends; ortools 9.15 vs highspy 1.15).

Each of ortools and highspy bundles its own HiGHS and whichever is imported
second fails; PuLP imports highspy on import. These tests start fresh
interpreters so that the import order is under control.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from models import solve_window
from models.backends import loaded
from tests.waiting import HANG_GUARD_S

EXAMPLE = "instances/data/example.json"

SCRIPT = """
import json, sys
{first}
from instances import read_instance
from models import solve_window
inst = read_instance({path!r})
out = {{}}
for solver in ("milp", "milp-highs", "cpsat"):
    res = solve_window(inst, "j2", "max_q", solver)
    out[solver] = [res.status, res.objective]
from models.backends import loaded
out["loaded"] = loaded()
print(json.dumps(out))
"""


@pytest.mark.parametrize(
    "first",
    [
        "from ortools.sat.python import cp_model",  # OR-Tools first, then PuLP via the façade
        "from models.backends import import_pulp; import_pulp()",  # PuLP first
        "import models.window.milp",  # the MILP module (PuLP) before the CP-SAT module
    ],
)
def test_all_backends_in_one_process(first: str) -> None:
    """CBC, HiGHS (subprocess) and CP-SAT all solve, whatever was imported first."""
    code = SCRIPT.format(first=first, path=EXAMPLE)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["milp"] == out["milp-highs"] == out["cpsat"] == ["optimal", 12.0]
    assert out["loaded"]["ortools"] and out["loaded"]["pulp"]


def test_highspy_still_importable_after_pulp() -> None:
    """import_pulp hides highspy only while PuLP imports: a later ``import highspy`` works."""
    code = (
        "from models.backends import import_pulp; import_pulp()\n"
        "import highspy; print(highspy.Highs().version())"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_optional_backends_imported_only_when_chosen() -> None:
    """Importing models and solving with the DP loads neither OR-Tools nor PuLP."""
    code = (
        "from instances import read_instance\n"
        "from models import solve_window\n"
        f"solve_window(read_instance({EXAMPLE!r}), 'j1', 'min_cost', 'dp')\n"
        "import sys; print(sorted(m for m in ('ortools', 'pulp', 'highspy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_this_process_runs_every_backend() -> None:
    """In the test process itself (CP-SAT loaded) the HiGHS backend still answers."""
    from instances import read_instance

    inst = read_instance(EXAMPLE)
    solve_window(inst, "j1", "min_cost", "cpsat")
    assert loaded()["ortools"]
    res = solve_window(inst, "j1", "min_cost", "milp", backend="highs")
    assert (res.status, res.objective) == ("optimal", 30)


INTERRUPTED = """
import signal
# a shell's background job starts with SIGINT ignored, and then Python installs no handler
signal.signal(signal.SIGINT, signal.default_int_handler)
from ortools.sat.python import cp_model
from models.backends import cpsat_solver, run_cpsat
m = cp_model.CpModel()
xs = [m.NewIntVar(0, 100, f"x{i}") for i in range(60)]
for i in range(59):
    m.Add(xs[i] + xs[i + 1] <= 100 + i % 7)
m.AddAllDifferent(xs)
m.Maximize(sum((i % 5 + 1) * x for i, x in enumerate(xs)))
solver = cpsat_solver(threads=1, seed=0, time_limit=60)
solver.parameters.log_search_progress = True
solver.parameters.log_to_stdout = False
said = []
def searching(line):  # the search's first log line: the solve has begun
    if not said:
        said.append(print("solving", flush=True))
solver.log_callback = searching
code = run_cpsat(solver, m)
print("returned", solver.StatusName(code), flush=True)
"""


SCIP_INTERRUPTED = """
import random, signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background suite ignores SIGINT
from ortools.linear_solver import pywraplp
from models.backends import run_interruptible
from models.joint.cg.packing import SCIP_PARAMETERS
solver = pywraplp.Solver.CreateSolver("SCIP")
solver.SetSolverSpecificParametersAsString(SCIP_PARAMETERS)
solver.EnableOutput()  # SCIP's log: its first line says the solve has begun
rng = random.Random(1)
xs = [solver.BoolVar("") for _ in range(400)]
for _ in range(200):
    row = solver.Constraint(0, 50)
    for x in rng.sample(xs, 40):
        row.SetCoefficient(x, rng.randint(1, 20))
solver.Maximize(sum(rng.randint(1, 30) * x for x in xs))
solver.SetTimeLimit(600_000)
code = run_interruptible(solver.Solve, solver.InterruptSolve, "scip")
print("returned", code, flush=True)
"""


@pytest.mark.parametrize(
    ("script", "first"),
    [
        # CP-SAT's own SIGINT handler would end the search and return FEASIBLE as if a time
        # limit had stopped it (and a gap study would store that unproven row)
        (INTERRUPTED, "solving"),
        # SCIP, the joint set packing's solver: any first line of its log
        (SCIP_INTERRUPTED, None),
    ],
    ids=["cp-sat", "scip"],
)
def test_ctrl_c_stops_a_solve_with_keyboardinterrupt(script: str, first: str | None) -> None:
    """SIGINT during a long solve, once the solver's log says it has begun, stops the solver
    and raises KeyboardInterrupt; the solve is never returned as a time-limited result."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line == first if first is not None else line
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG_GUARD_S)
    assert "returned" not in out
    assert proc.returncode != 0 and "KeyboardInterrupt" in err


def test_a_model_whose_presolve_fails_is_solved_without_it() -> None:
    """An infeasible 7-window integer master (a tiny joint batch, problem (6), a count of 2
    and a value to beat) on which OR-Tools 9.15's presolve raised IndexError: run_cpsat
    answers it, infeasible."""
    from collections import defaultdict

    from ortools.sat.python import cp_model

    from models.backends import cpsat_solver, run_cpsat

    windows = [  # job, tasks (node, start, end), cost, proc_time
        (0, [("n1", 19, 21)], 6, 2),
        (1, [("n1", 24, 26), ("n2", 24, 26), ("n4", 24, 26)], 18, 6),
        (0, [("n4", 6, 9)], 9, 3),
        (0, [("n4", 15, 18)], 9, 3),
        (0, [("n3", 15, 19)], 3, 4),
        (0, [("n3", 19, 23)], 3, 4),
        (1, [("n3", 24, 27), ("n1", 24, 27), ("n4", 24, 27)], 20, 9),
    ]
    m = cp_model.CpModel()
    b = [m.NewBoolVar(f"b{i}") for i in range(len(windows))]
    per_job, per_node = defaultdict(list), defaultdict(list)
    for v, (j, tasks, _, _) in zip(b, windows, strict=True):
        per_job[j].append(v)
        for node, start, end in tasks:
            per_node[node].append(m.NewOptionalFixedSizeIntervalVar(start, end - start, v, ""))
    for group in per_job.values():
        m.AddAtMostOne(group)
    for intervals in per_node.values():
        m.AddNoOverlap(intervals)
    m.Add(sum(w[2] * v for w, v in zip(windows, b, strict=True)) <= 25)
    m.Add(sum(w[3] * v for w, v in zip(windows, b, strict=True)) <= 12)
    m.Add(sum(b) == 2)
    goal = sum(-w[2] * v for w, v in zip(windows, b, strict=True))
    m.Add(goal <= -25)
    m.Minimize(goal)
    solver = cpsat_solver(threads=1, seed=0, time_limit=None)
    assert run_cpsat(solver, m) == cp_model.INFEASIBLE


def test_cpsat_bound_is_exact_past_two_to_the_fifty_three() -> None:
    """CP-SAT's bound read from its response as an integer: exact at 9·10^15 + 26 (the
    double of BestObjectiveBound rounds there), for a minimised and a maximised objective."""
    from ortools.sat.python import cp_model

    from models.backends import cpsat_bound, cpsat_solver, run_cpsat

    m = cp_model.CpModel()
    x, y = m.NewIntVar(0, 10**16, "x"), m.NewBoolVar("y")
    m.Add(x >= 3 * 10**15 + 7 + y)
    m.Minimize(3 * x + 5 - y)
    solver = cpsat_solver(threads=1, seed=0, time_limit=10)
    run_cpsat(solver, m)
    assert cpsat_bound(solver, m) == 9 * 10**15 + 26 == solver.Value(3 * x + 5 - y)
    m.Maximize(-3 * x + 5 - y)
    run_cpsat(solver, m)
    assert cpsat_bound(solver, m) == -(9 * 10**15) - 16
