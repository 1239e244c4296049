"""jobs.csv (FORMATS.md: Batsim's column names), determinism, the summary metrics, evalys."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from instances.batsim import profile_name
from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import Replay, simulate
from planner.cluster.output import COLUMNS, cpu_ranges, span_text, write_jobs_csv
from tests.planner.cluster.test_hand import MIXED, TWO
from tests.planner.cluster.test_invariants import random_workload


@pytest.mark.parametrize(
    ("cpus", "text"),
    [
        ([0, 1, 2, 3, 8], "0-3 8"),  # a range, then a single CPU
        ([5], "5"),  # one CPU
        ([7, 2, 3], "2-3 7"),  # unsorted input
        ([0, 2, 4], "0 2 4"),  # no ranges
    ],
)
def test_cpu_ranges(cpus: list[int], text: str) -> None:
    """CPU numbers are written as ranges, as Batsim and evalys expect."""
    assert cpu_ranges(cpus) == text


def test_jobs_csv_rows(tmp_path: Path) -> None:
    """The EASY replay of MIXED, row by row (a killed job, a zero-length job, stretch, bsld)."""
    path = tmp_path / "jobs.csv"
    write_jobs_csv(simulate(MIXED, "easy"), path)
    rows = list(csv.reader(path.open()))
    assert tuple(rows[0]) == COLUMNS
    by_id = {r[0]: dict(zip(COLUMNS, r, strict=True)) for r in rows[1:]}
    # e: submitted 2, started 15, killed at 15 + 8: response 21, duration 8
    e = by_id["e"]
    assert (e["success"], e["final_state"], e["requested_time"]) == (
        "0", "COMPLETED_WALLTIME_REACHED", "8")  # fmt: skip
    assert (e["starting_time"], e["execution_time"], e["finish_time"]) == ("15", "8", "23")
    assert (e["waiting_time"], e["turnaround_time"]) == ("13", "21")
    assert e["stretch"] == f"{21 / 8:.6f}" and e["bounded_slowdown"] == f"{21 / 10:.6f}"
    # d: zero length, waited 2 s: stretch = 2 / max(0, 1), bsld = max(1, 2 / 10) = 1
    d = by_id["d"]
    assert (d["execution_time"], d["stretch"], d["bounded_slowdown"]) == ("0", "2.000000",
                                                                         "1.000000")  # fmt: skip
    assert (d["allocated_resources"], d["machine"], d["deadline"], d["delayed"]) == (
        "2", "m", "", "0")  # fmt: skip
    assert by_id["b"]["allocated_resources"] == "0-3"
    e_work = next(j.work for j in MIXED.jobs if j.id == "e")
    assert (e["workload_name"], e["profile"]) == ("workload", f"delay_{e_work}")  # no name


def test_same_input_same_bytes(tmp_path: Path) -> None:
    """Two replays of the same workload write byte-identical jobs.csv files."""
    w = random_workload(7)
    for policy in ("fcfs", "easy", "conservative"):
        a, b = tmp_path / f"{policy}-a.csv", tmp_path / f"{policy}-b.csv"
        write_jobs_csv(simulate(w, policy), a)
        write_jobs_csv(simulate(w, policy), b)
        assert a.read_bytes() == b.read_bytes()


def test_summary_metrics_by_hand() -> None:
    """TWO under EASY: makespan 11 − 0; busy CPU·s and speed-weighted CPU·s worked out."""
    s = simulate(TWO, "easy").summary()
    # p 2 CPUs × 10 s on A (speed 1); q 2 × 5, r 4 × 4, s 2 × 2 on B (speed 2)
    busy, weighted = 2 * 10 + 2 * 5 + 4 * 4 + 2 * 2, 2 * 10 + 2 * (2 * 5 + 4 * 4 + 2 * 2)
    assert s["makespan"] == 10
    assert s["utilisation"] == pytest.approx(busy / (6 * 10))
    assert s["weighted_utilisation"] == pytest.approx(weighted / ((2 + 4 * 2) * 10))
    # waits: p 0, q 0, r 5, s 0; responses 10, 5, 9, 2; durations 10, 5, 4, 2
    assert (s["mean_wait"], s["median_wait"]) == (5 / 4, 0)
    assert s["mean_slowdown"] == pytest.approx((1 + 1 + 9 / 4 + 1) / 4)
    assert s["mean_bounded_slowdown"] == pytest.approx((1 + 1 + 1 + 1) / 4)
    assert s["jobs"] == 4 and s["dropped"] == 0 and s["killed"] == 0


def test_deadlines_count_delayed_jobs() -> None:
    """A job finishing after its deadline is delayed; on time or without one it is not."""
    w = Workload((Machine("m", 1),), (
        ClusterJob("a", 0, 1, 5, deadline=5), ClusterJob("b", 0, 1, 5, deadline=9),
        ClusterJob("c", 0, 1, 5),
    ))  # fmt: skip
    s = simulate(w, "fcfs").summary()
    assert (s["delayed"], s["with_deadline"]) == (1, 2)


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_evalys_reads_jobs_csv(tmp_path: Path) -> None:
    """evalys (the Batsim analysis toolkit) loads the file: same jobs, same times."""
    jobset = pytest.importorskip("evalys.jobset", reason="evalys not installed (extra 'evalys')")
    path = tmp_path / "jobs.csv"
    replay = simulate(TWO, "conservative")
    write_jobs_csv(replay, path)
    js = jobset.JobSet.from_csv(str(path))
    assert len(js.df) == 4 and js.MaxProcs == 6  # CPUs 0-5: p on 0-1 (A), the rest on 2-5 (B)
    assert sorted(js.df["finish_time"]) == sorted(r.finish for r in replay.records)
    assert list(js.df["proc_alloc"]) == [r.cpus for r in replay.records]


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_evalys_draws_its_readme_plots(tmp_path: Path) -> None:
    """evalys' README calls work on our jobs.csv: ``JobSet.plot(with_details=True)`` (load,
    queue, job details and the Gantt chart, which needs ``workload_name``) and ``gantt()``."""
    jobset = pytest.importorskip("evalys.jobset", reason="evalys not installed (extra 'evalys')")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = tmp_path / "jobs.csv"
    write_jobs_csv(simulate(random_workload(3), "easy"), path)
    js = jobset.JobSet.from_csv(str(path))
    try:
        js.plot(with_details=True)
        details = plt.gcf()
        assert len(details.axes) == 4 and all(ax.has_data() for ax in details.axes)
        details.savefig(tmp_path / "details.png")
        js.gantt()
        assert plt.gca().patches  # one rectangle per job interval
        plt.gcf().savefig(tmp_path / "gantt.png")
    finally:
        plt.close("all")
    assert (tmp_path / "details.png").stat().st_size > 0 < (tmp_path / "gantt.png").stat().st_size


def _row_by_row(replay: Replay, path: Path) -> None:
    """jobs.csv written one record at a time through csv (the writer's reference)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(COLUMNS)
        name = replay.workload.name or "workload"
        for job, r in zip(replay.workload.jobs, replay.records, strict=True):
            out.writerow((
                r.id, name, profile_name(job.work), r.submit, r.cpus, r.requested,
                0 if r.killed else 1,
                "COMPLETED_WALLTIME_REACHED" if r.killed else "COMPLETED_SUCCESSFULLY",
                r.start, r.duration, r.finish, r.wait, r.response, f"{r.slowdown:.6f}",
                span_text(r.cpu_spans), r.machine, "" if r.deadline is None else r.deadline,
                int(r.delayed), f"{r.bounded_slowdown:.6f}",
            ))  # fmt: skip


@pytest.mark.parametrize("names", [("j", "m", "w"), ('j,"x', "m,1", "w"), ('"', "m", "w"),
                                   ("j", "m", 'w,"1'), ("j%d", "m%s", "w%%")])
@pytest.mark.parametrize("seed", [3, 11, 29])
@pytest.mark.parametrize("one_machine", [False, True])
def test_bulk_writer_equals_row_by_row(names: tuple[str, str, str], seed: int,
                                       one_machine: bool, tmp_path: Path) -> None:  # fmt: skip
    """The column-wise writer gives the bytes of csv row by row, names CSV must quote and
    ``%`` included, on several machines with deadlines and on one machine without."""
    w = random_workload(seed)
    if one_machine:
        w = Workload((w.machines[0],), tuple(j for j in w.jobs if j.cpus <= w.machines[0].cpus))
    jobs = tuple(ClusterJob(f"{names[0]}{i}", j.submit, j.cpus, j.work, j.estimate,
                            deadline=j.submit + 20 if i % 2 and not one_machine else None)
                 for i, j in enumerate(w.jobs))  # fmt: skip
    machines = tuple(Machine(f"{names[1]}{k}", m.cpus, m.speed) for k, m in enumerate(w.machines))
    replay = simulate(Workload(machines, jobs, name=names[2]), "conservative")
    write_jobs_csv(replay, tmp_path / "bulk.csv")
    _row_by_row(replay, tmp_path / "rows.csv")
    assert (tmp_path / "bulk.csv").read_bytes() == (tmp_path / "rows.csv").read_bytes()
