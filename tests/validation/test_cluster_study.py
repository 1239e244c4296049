"""``planner study cluster``: spec, checked replays, resume after an interruption, report."""

from __future__ import annotations

from pathlib import Path

import pytest

from instances import write_workload
from planner.cli import main
from tests.planner.cluster.test_hand import DELAY, MIXED
from validation.study import StudyError, StudyStopped
from validation.study.cluster import ClusterStore, ClusterStudySpec, run_cluster_study
from validation.study.cluster.report import summarise

TIMING = ("scheduler_seconds", "replay_seconds")


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    """MIXED and DELAY (tests/planner/cluster/test_hand.py) as workload files."""
    a, b = tmp_path / "mixed.json", tmp_path / "delay.json"
    write_workload(MIXED, a)
    write_workload(DELAY, b)
    return str(a), str(b)


def test_tasks_files_once_families_per_seed(files: tuple[str, str]) -> None:
    """A file is replayed once (seed -1); a family once per seed; each × estimates × policy."""
    spec = ClusterStudySpec(workloads=(files[0], "klusacek2008"), policies=("fcfs", "easy"),
                            seeds=(3, 4), estimates=("requested", "actual"))  # fmt: skip
    tasks = [(t.workload, t.seed, t.estimates, t.policy) for t in spec.tasks()]
    assert len(tasks) == (1 + 2) * 2 * 2
    assert tasks[:2] == [(files[0], -1, "requested", "fcfs"), (files[0], -1, "requested", "easy")]
    assert ("klusacek2008", 4, "actual", "easy") in tasks


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"workloads": ("nope.json",)}, "nope.json: no such file"),  # neither file nor family
        ({"workloads": ("klusacek2008",), "policies": ("sjf",)}, "unknown policy 'sjf'"),
        ({"workloads": ("klusacek2008",), "estimates": ("exact",)}, "unknown estimates"),
        ({"workloads": ()}, "at least one"),  # nothing to replay
        ({"workloads": ("klusacek2008",), "seeds": (-1,)}, "non-negative"),  # bad seed
        ({"workloads": ("klusacek2008",), "params": {"bogus": 1}}, "no parameter 'bogus'"),
        ({"workloads": ("klusacek2008",), "params": {"jobs": -1}}, "jobs"),  # out of range
    ],
)
def test_bad_spec(kwargs: dict, fragment: str) -> None:
    """Bad study input is one StudyError line."""
    with pytest.raises(StudyError, match=fragment):
        ClusterStudySpec(**kwargs)


def test_family_parameters_reach_the_generator(files: tuple[str, str]) -> None:
    """--param values go to family workloads only (files ignore them); a file-only study refuses."""
    from validation.study.cluster.task import load

    spec = ClusterStudySpec(workloads=(files[0], "klusacek2008"), policies=("fcfs",),
                            params={"jobs": 7, "machines": 3})  # fmt: skip
    family, file = (t for t in spec.tasks() if t.workload == "klusacek2008"), spec.tasks()[0]
    task = next(family)
    assert task.params == (("jobs", 7), ("machines", 3)) and file.params == ()
    w = load(task)
    assert (len(w.jobs), len(w.machines)) == (7, 3)
    with pytest.raises(StudyError, match="need a workload family"):
        ClusterStudySpec(workloads=(files[0],), params={"jobs": 7})


def test_resume_after_interruption_gives_the_same_rows(
    files: tuple[str, str], tmp_path: Path
) -> None:
    """Stopped after 2 of 6 replays, the rerun adds the other 4; rows equal a clean run's."""
    spec = ClusterStudySpec(workloads=files)
    with ClusterStore(tmp_path / "a.sqlite") as store, pytest.raises(StudyStopped):
        run_cluster_study(spec, store, stop_after=2, progress=False)
    with ClusterStore(tmp_path / "a.sqlite") as store:
        outcome = run_cluster_study(spec, store, progress=False)
        resumed = store.rows(outcome.study)
    assert (outcome.replays, outcome.written, outcome.violations) == (6, 4, 0)
    with ClusterStore(tmp_path / "b.sqlite") as store:
        clean = store.rows(run_cluster_study(spec, store, progress=False).study)

    def strip(rows: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k not in TIMING} for r in rows]

    assert strip(resumed) == strip(clean)
    by_policy = {s["policy"]: s for s in summarise(clean) if s["workload"] == "delay.json"}
    # DELAY (test_hand): EASY waits 0, 9, 19, 0; conservative 0, 9, 9, 18
    assert by_policy["easy"]["mean_wait"] == pytest.approx(28 / 4)
    assert by_policy["conservative"]["mean_wait"] == pytest.approx(36 / 4)


def test_not_a_cluster_database(tmp_path: Path) -> None:
    """Another SQLite file is refused with one line naming the format."""
    import sqlite3

    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StudyError, match=r"planner\.cluster-study/1"):
        ClusterStore(path)


@pytest.mark.slow
def test_cli_study_cluster(files: tuple[str, str], tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """The command prints the table, writes the report; a rerun computes nothing."""
    argv = ["study", "cluster", "--workload", *files, "--out", str(tmp_path / "out"),
            "--workers", "1", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "6 replays (6 computed now)" in out and "conservative" in out
    assert "Findings:" in out and "the same seeds" in out
    assert max(len(line) for line in out.splitlines()[1:]) <= 100
    assert "## Findings" in (tmp_path / "out" / "report.md").read_text()
    assert (tmp_path / "out" / "summary.csv").read_text().count("\n") == 7
    assert main(argv) == 0
    assert "6 replays (0 computed now)" in capsys.readouterr().out
    assert main(["study", "cluster", "--workload", "nope.swf", "--quiet"]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_study_cluster_on_dask_matches_local(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same study on a Dask local cluster stores the same rows as in-process."""
    rows = {}
    for kind in ("local", "dask"):
        out = tmp_path / kind
        argv = ["study", "cluster", "--workload", *files, "--out", str(out),
                "--executor", kind, "--workers", "1", "--quiet"]  # fmt: skip
        assert main(argv) == 0
        with ClusterStore(str(out / "cluster.sqlite")) as store:
            (study,) = store.studies()
            rows[kind] = [{k: v for k, v in r.items() if k not in TIMING}
                          for r in store.rows(study["id"])]  # fmt: skip
    capsys.readouterr()
    assert rows["local"] == rows["dask"] and len(rows["local"]) == 6
    argv = ["study", "cluster", "--workload", files[0], "--scheduler", "x:1", "--quiet"]
    assert main(argv) == 2
    assert "--scheduler needs --executor dask" in capsys.readouterr().err
