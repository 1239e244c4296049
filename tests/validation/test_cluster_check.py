"""The independent job-flow checker on hand-written good and broken schedules.

The hand schedule and its derivation are in ``cluster_fixtures.py``: four
jobs on machines a (4 CPUs, speed 1) and b (2 CPUs, speed 2), FCFS. Each
broken variant changes a few cells and must be caught by the named rule.
"""

from __future__ import annotations

import copy
import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from instances import generate_workload, read_workload, write_workload
from planner.cli import main
from tests.validation.cluster_fixtures import HAND, HAND_ROWS, fcfs_rows, write_rows
from validation.cluster_check import RULES, check_schedule, check_schedule_files
from validation.cluster_csv import RESERVATION_COLUMNS, read_jobs_csv


def _check(tmp_path: Path, rows: list[dict[str, Any]], **kw: Any) -> list[str]:
    path = write_rows(tmp_path / "jobs.csv", rows)
    log = kw.pop("log", None)
    if log is not None:
        kw["reservations"] = write_rows(tmp_path / "res.csv", log, RESERVATION_COLUMNS)
    return check_schedule_files(HAND, path, **kw)


def _rules(violations: list[str]) -> set[str]:
    return {v.split(":", 1)[0] for v in violations}


def test_hand_schedule_is_clean(tmp_path: Path) -> None:
    """The hand-derived FCFS schedule has no violation, with the FCFS invariant too."""
    assert _check(tmp_path, HAND_ROWS, policy="fcfs") == []


def _edit(job: str, **cells: Any) -> list[dict[str, Any]]:
    rows = copy.deepcopy(HAND_ROWS)
    for row in rows:
        if row["job_id"] == job:
            row.update(cells)
    return rows


def _drop(job: str) -> list[dict[str, Any]]:
    return [r for r in copy.deepcopy(HAND_ROWS) if r["job_id"] != job]


BROKEN: list[tuple[list[dict[str, Any]], str]] = [
    (_drop("j3"), "rows"),  # a lost job
    ([*HAND_ROWS, HAND_ROWS[0]], "rows"),  # a job twice
    ([*HAND_ROWS, dict(HAND_ROWS[3], job_id="j9")], "rows"),  # a job not in the workload
    (_edit("j2", submission_time=4), "request"),  # submission time not the workload's
    (_edit("j1", requested_time=10), "request"),  # requested time is e_j (12), not w_j
    (_edit("j1", requested_number_of_resources=3), "request"),  # wrong CPU request
    (_edit("j1", deadline=""), "request"),  # deadline lost
    (_edit("j3", machine="c"), "machine"),  # unknown machine
    (_edit("j3", allocated_resources="4"), "machine"),  # 1 CPU allocated, 2 requested
    (_edit("j3", allocated_resources="4 4"), "machine"),  # the same CPU twice
    (_edit("j4", allocated_resources="2"), "machine"),  # CPU 2 is on a, the row says b
    (_edit("j3", machine="a", allocated_resources="2-3", execution_time=8, finish_time=18,
           turnaround_time=12, stretch=1.5, bounded_slowdown=1.2), "overlap"),  # j2 holds 0-3
    (_edit("j3", machine="a", allocated_resources="4-5", execution_time=8, finish_time=18,
           turnaround_time=12, stretch=1.5, bounded_slowdown=1.2), "capacity"),  # 6 on a 4-CPU a
    (_edit("j4", machine="a", allocated_resources="0", starting_time=12, finish_time=12,
           waiting_time=6, turnaround_time=6, stretch=6.0), "overlap"),  # 0 s job inside j2
    (_edit("j2", starting_time=4, finish_time=11, waiting_time=-1, turnaround_time=6,
           stretch=6 / 7), "submit"),  # starts before its submission
    (_edit("j1", execution_time=9, finish_time=9, turnaround_time=9, stretch=1.0,
           bounded_slowdown=1.0), "duration"),  # 10 s of work at speed 1 take 10 s
    (_edit("j3", execution_time=8, finish_time=18, turnaround_time=12, stretch=1.5,
           bounded_slowdown=1.2), "duration"),  # on b (speed 2) killed at 8 / 2 = 4 s
    (_edit("j3", success=1, final_state="COMPLETED_SUCCESSFULLY"), "duration"),  # j3 is killed
    (_edit("j1", finish_time=11), "times"),  # finish != start + execution
    (_edit("j2", waiting_time=4), "times"),  # waiting != start - submit
    (_edit("j2", turnaround_time=13), "times"),  # turnaround != finish - submit
    (_edit("j2", stretch=1.2), "metrics"),  # stretch = 12 / 7
    (_edit("j2", bounded_slowdown=12 / 7), "metrics"),  # bsld = max(1, 12 / max(7, 10))
    (_edit("j1", delayed=1), "metrics"),  # finishes at 10 <= deadline 30
]  # fmt: skip


@pytest.mark.parametrize(
    ("rows", "rule"), BROKEN, ids=[f"{i}-{r[1]}" for i, r in enumerate(BROKEN)]
)
def test_each_violation_class_is_caught(tmp_path: Path, rows: list[dict], rule: str) -> None:
    """Every broken variant is reported under the rule it breaks."""
    assert rule in RULES
    assert rule in _rules(_check(tmp_path, rows))


def test_fcfs_order(tmp_path: Path) -> None:
    """j4 (0 s) run at 6 on b is feasible, but starts before j2, queued ahead: FCFS only."""
    rows = _edit("j4", starting_time=6, finish_time=6, waiting_time=0, turnaround_time=0,
                 stretch=0.0)  # fmt: skip
    assert _check(tmp_path, rows) == []
    assert _rules(_check(tmp_path, rows, policy="fcfs")) == {"fcfs"}


def test_easy_shadow_time(tmp_path: Path) -> None:
    """At 5 the head j2's shadow time is 12 (j1's planned end): start 10 <= 12 passes; a
    recorded shadow of 9 is broken by the start at 10.
    """
    good = [dict(time=5, job_id="j2", kind="easy_head", machine="a", start=12)]
    assert _check(tmp_path, HAND_ROWS, policy="easy", log=good) == []
    bad = [*good, dict(time=6, job_id="j2", kind="easy_head", machine="a", start=9)]
    assert _rules(_check(tmp_path, HAND_ROWS, policy="easy", log=bad)) == {"easy"}


def test_conservative_first_reservation(tmp_path: Path) -> None:
    """Only the first reservation of a job bounds its start; later ones may move earlier."""
    good = [
        dict(time=5, job_id="j2", kind="conservative", machine="a", start=12),
        dict(time=10, job_id="j2", kind="conservative", machine="a", start=10),
    ]
    assert _check(tmp_path, HAND_ROWS, policy="conservative", log=good) == []
    bad = [dict(time=5, job_id="j2", kind="conservative", machine="a", start=8), *good]
    assert _rules(_check(tmp_path, HAND_ROWS, policy="conservative", log=bad)) == {"conservative"}


@pytest.mark.parametrize(
    "entry",
    [
        dict(time=5, job_id="j7", kind="easy_head", machine="a", start=12),  # unknown job
        dict(time=5, job_id="j2", kind="easy_head", machine="z", start=12),  # unknown machine
        dict(time=5, job_id="j2", kind="easy_head", machine="a", start=4),  # start < pass time
        dict(time=11, job_id="j2", kind="easy_head", machine="a", start=12),  # j2 ran at 10
    ],
)
def test_bad_reservation_rows(tmp_path: Path, entry: dict) -> None:
    """Reservation-log rows that cannot be true are reported as ``reservation``."""
    assert "reservation" in _rules(_check(tmp_path, HAND_ROWS, policy="easy", log=[entry]))


def test_replayed_schedules_clean_and_perturbed_caught() -> None:
    """A naive FCFS replay of generated flows is clean; moving any job 1 s earlier is caught."""
    rng = random.Random(4)
    for seed in range(4):
        w = generate_workload("klusacek2008", seed, machines=6, jobs=60, interarrival=30.0)
        rows = fcfs_rows(w)
        parsed = _parse(rows)
        assert check_schedule(w, parsed, policy="fcfs") == []
        movable = [r for r in rows if r["execution_time"] > 0]
        for row in rng.sample(movable, 10):
            moved = dict(row)
            for key in ("starting_time", "finish_time", "waiting_time", "turnaround_time"):
                moved[key] -= 1
            moved["stretch"] = moved["turnaround_time"] / max(moved["execution_time"], 1)
            moved["bounded_slowdown"] = max(
                1.0, moved["turnaround_time"] / max(moved["execution_time"], 10)
            )
            deadline = moved["deadline"]
            moved["delayed"] = int(deadline != "" and moved["finish_time"] > deadline)
            changed = [moved if r is row else r for r in rows]
            assert check_schedule(w, _parse(changed), policy="fcfs"), row["job_id"]


def _parse(rows: list[dict[str, Any]]) -> list:
    """Round-trip ``rows`` through a jobs.csv file, as the checker reads it."""
    with tempfile.TemporaryDirectory() as tmp:
        return read_jobs_csv(write_rows(Path(tmp) / "jobs.csv", rows))


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("job_id,submission_time\nj1,0\n", "line 1: missing columns"),  # columns missing
        (",".join(RESERVATION_COLUMNS) + "\n", "missing columns"),  # a reservation log instead
    ],
)
def test_cli_bad_csv_exits_2(tmp_path: Path, capsys, text: str, needle: str) -> None:
    """A jobs.csv that is not one: one stderr line naming the file, exit 2."""
    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    bad = tmp_path / "jobs.csv"
    bad.write_text(text, encoding="utf-8")
    assert main(["check-schedule", str(workload), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and needle in err


def test_cli_bad_cells_exit_2(tmp_path: Path, capsys) -> None:
    """A number that is not one, or malformed CPU ranges: exit 2 naming line and column."""
    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    for cells, needle in (
        ({"starting_time": "soon"}, "line 4, column starting_time: must be an integer"),
        ({"allocated_resources": "5-4"}, "line 4, column allocated_resources: malformed"),
    ):
        path = write_rows(tmp_path / "jobs.csv", _edit("j3", **cells))
        assert main(["check-schedule", str(workload), str(path)]) == 2
        assert needle in capsys.readouterr().err


def test_cli_exit_codes(tmp_path: Path, capsys) -> None:
    """Exit 0 and a summary when clean; otherwise one line per violation on stdout, one line
    on stderr and exit 3 (as ``planner check``; 2 is bad input, 1 an internal error)."""
    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    good = write_rows(tmp_path / "good.csv", HAND_ROWS)
    assert main(["check-schedule", str(workload), str(good), "--policy", "fcfs"]) == 0
    assert "4 jobs checked: no violations" in capsys.readouterr().out
    bad = write_rows(tmp_path / "bad.csv", _drop("j3"))
    assert main(["check-schedule", str(workload), str(bad)]) == 3
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[0] == "rows: job 'j3' has no row" and out[-1].endswith(": 1 violation")
    assert captured.err.count("\n") == 1 and "breaks 1 rule (listed" in captured.err
    assert main(["check-schedule", str(workload), str(bad), "--json"]) == 3
    summary = json.loads(capsys.readouterr().out)
    assert summary["violations"] == 1 and summary["details"] == ["rows: job 'j3' has no row"]
    assert main(["check-schedule", str(workload), str(good), "--policy", "sjf"]) == 2
    assert main(["check-schedule", str(workload), str(good), "--policy", "easy"]) == 0
    assert "invariant is not checked" in capsys.readouterr().err


def test_reads_swf_workloads_like_simulate(tmp_path: Path) -> None:
    """The workload argument is read as ``planner simulate`` reads it (SWF, estimates)."""
    flow = Path(__file__).parents[1] / "instances" / "data" / "flow.swf"
    w = read_workload(flow, estimates="actual")
    path = write_rows(tmp_path / "jobs.csv", fcfs_rows(w))
    argv = ["check-schedule", str(flow), str(path), "--policy", "fcfs"]
    assert main([*argv, "--estimates", "actual"]) == 0
    assert main(argv) == 3  # with requested estimates job 8 would have been killed at 150


def test_checker_imports_neither_planner_nor_the_simulator() -> None:
    """The checker's modules import only the standard library, instances and each other."""
    import ast

    import validation.cluster_check as check
    import validation.cluster_csv as parse

    for module in (check, parse):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [n for n in names if n.split(".")[0] == "planner"], module.__name__


def _naive_overlaps(rows: list[Any]) -> set[tuple[str, int, str, int, int]]:
    """Reference: per CPU, sweep jobs in (start, finish, id) order (every CPU materialised)."""
    per_cpu: dict[int, list[tuple[int, int, str]]] = {}
    for row in rows:
        for lo, hi in row.cpus:
            for cpu in range(lo, hi + 1):
                per_cpu.setdefault(cpu, []).append(
                    (row.ints["starting_time"], row.ints["finish_time"], row.job_id)
                )
    out = set()
    for cpu, jobs in per_cpu.items():
        end, holder = -1, ""
        for start, finish, ident in sorted(set(jobs)):
            if start < end:
                out.add((ident, start, holder, end, cpu))
            if finish > end:
                end, holder = finish, ident
    return out


def test_overlap_sweep_matches_a_per_cpu_reference() -> None:
    """The range-based overlap sweep reports exactly the (job, holder, CPU) clashes that a
    per-CPU sweep finds, on 300 random small schedules (seeded)."""
    from validation.cluster_check import _overlaps
    from validation.cluster_csv import Row

    rng = random.Random(7)
    for _ in range(300):
        rows = []
        for k in range(rng.randint(1, 7)):
            start = rng.randint(0, 6)
            spans = []
            for _ in range(rng.randint(1, 3)):
                lo = rng.randint(0, 12)
                spans.append((lo, lo + rng.randint(0, 4)))
            ints = {"starting_time": start, "finish_time": start + rng.randint(0, 4)}
            rows.append(Row(k + 2, f"j{k}", ints, {}, "", "m", tuple(spans), None, None))
        got = set()
        for line in _overlaps(rows):
            ident = line.split("'")[1]
            holder = line.split("'")[3]
            start = int(line.split(" starts at ")[1].split()[0])
            end = int(line.rsplit(" ", 1)[1])
            cpus = re.split(r" on CPUs? ", line)[1].split(" while ")[0]
            for token in cpus.split():
                lo, _, hi = token.partition("-")
                for cpu in range(int(lo), int(hi or lo) + 1):
                    got.add((ident, start, holder, end, cpu))
        assert got == _naive_overlaps(rows)


def test_huge_machine_and_times_round_trip_exactly(tmp_path: Path) -> None:
    """A machine of 2^31 - 1 CPUs at speed 10^-3 and times near the limits: simulate writes
    ends past 2^53 and check-schedule reads them back as exact integers (no violation)."""
    from instances.workload import ClusterJob, Machine, Workload

    w = Workload(
        (Machine("a", 2**31 - 1, speed=1e-3), Machine("b", 10**8)),
        (
            ClusterJob("1", 0, 2**31 - 1, 10**12),
            ClusterJob("2", 5, 10**8 - 1, 7, 10**12, 10**12),
            ClusterJob("3", 6, 2**31 - 1, 10**12 - 1),
            ClusterJob("4", 10**12, 1, 10**12 - 3),
        ),
    )
    flow, jobs = tmp_path / "w.json", tmp_path / "jobs.csv"
    write_workload(w, flow)
    for policy in ("fcfs", "easy", "conservative", "tabu"):
        assert main(["simulate", str(flow), "--policy", policy, "-o", str(jobs)]) == 0
        text = jobs.read_text(encoding="utf-8")
        assert "1999999999999000" in text  # finish of job 3 after job 1: > 2^53, exact
        extra = ["--policy", "fcfs"] if policy == "fcfs" else []
        assert main(["check-schedule", str(flow), str(jobs), *extra]) == 0


@pytest.mark.parametrize(
    ("cells", "needle"),
    [
        ({"allocated_resources": "\u00b2"}, "malformed CPU ranges"),  # superscript two
        ({"allocated_resources": "\uff10-\uff13"}, "malformed CPU ranges"),  # full-width digits
        ({"allocated_resources": "0-100000000000000000000"}, "malformed"),  # 21 digits
        ({"allocated_resources": "0\t3"}, "malformed"),  # tab separator
        ({"allocated_resources": "-1"}, "malformed"),  # negative CPU
        ({"starting_time": "1_0"}, "must be an integer"),  # Python-only grouping
        ({"starting_time": "1e3"}, "must be an integer"),  # exponent in an integer column
        ({"starting_time": "\u0661"}, "must be an integer"),  # Arabic-Indic digit one
        ({"starting_time": "12345678901234567890"}, "at most 19 digits"),  # beyond int64
        ({"stretch": "nan"}, "must be a finite decimal"),  # NaN
        ({"stretch": "1e999"}, "must be a finite decimal"),  # overflows to infinity
        ({"delayed": "\x00"}, "must be 0 or 1, got '\\x00'"),  # a NUL byte, escaped
    ],
)
def test_cli_strict_cells_exit_2(cells: dict[str, str], needle: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """Every cell class no CSV tool reads as a number is one stderr line and exit 2."""
    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    path = write_rows(tmp_path / "jobs.csv", _edit("j3", **cells))
    assert main(["check-schedule", str(workload), str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


def test_cli_refuses_huge_cpu_range_without_expanding_it(tmp_path: Path, capsys) -> None:
    """A range of 10^18 CPUs is counted, not materialised: a 'machine' violation, exit 3."""
    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    huge = _edit("j3", allocated_resources="0-999999999999999999")
    path = write_rows(tmp_path / "jobs.csv", huge)
    assert main(["check-schedule", str(workload), str(path)]) == 3
    assert "CPUs allocated" in capsys.readouterr().out


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs FIFOs")
def test_cli_refuses_fifo_and_devices_at_once(tmp_path: Path, capsys) -> None:
    """A FIFO without a writer and a character device are refused before any read."""
    import os

    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    fifo = tmp_path / "jobs.csv"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        assert main(["check-schedule", str(workload), path]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not a regular file" in err


def test_violations_stay_one_line_each(tmp_path: Path) -> None:
    """A job id with a newline in the CSV (quoted) gives a one-line violation, escaped (the
    line named is the last line of the record, as the csv module counts)."""
    rows = [*HAND_ROWS, dict(HAND_ROWS[3], job_id="x\ny")]
    assert _check(tmp_path, rows) == ["rows: line 7: job 'x\\ny' is not in the workload"]


def test_size_and_range_bounds(tmp_path: Path, monkeypatch, capsys) -> None:
    """Past CSV_MAX bytes, or SPANS_MAX CPU ranges in all (both lowered here), one line, exit 2."""
    import validation.cluster_csv as parse

    workload = tmp_path / "w.json"
    write_workload(HAND, workload)
    path = write_rows(tmp_path / "jobs.csv", HAND_ROWS)
    monkeypatch.setattr(parse, "SPANS_MAX", 3)
    assert main(["check-schedule", str(workload), str(path)]) == 2
    assert "more than 3 CPU ranges" in capsys.readouterr().err
    monkeypatch.setattr(parse, "CSV_MAX", 2**20)
    path.write_bytes(b"x" * (2**20 + 1))
    assert main(["check-schedule", str(workload), str(path)]) == 2
    assert "is larger than 1 MiB" in capsys.readouterr().err
