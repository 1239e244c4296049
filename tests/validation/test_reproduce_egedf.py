"""``planner study reproduce egedf`` at a tiny size, and the claim checks on hand-made means."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import main
from validation.study.reproduce import egedf


def means(**over: float) -> dict[tuple[float, str], dict[str, float]]:
    """Return means where every paper claim holds; ``over`` sets tabu's delayed % at 5 s."""
    m = {}
    for k, ia in enumerate(egedf.INTERARRIVALS):
        load = len(egedf.INTERARRIVALS) - k  # contention falls as ia grows
        for p in egedf.POLICIES:
            sched = p in egedf.SCHEDULE
            m[(ia, p)] = {
                "delayed_pct": load * (1.0 if p == "tabu" else 1.5 if sched else 3.0),
                "utilisation": (0.5 if ia == egedf.INTERARRIVALS[-1] else 0.8) if sched else 0.6,
                "weighted_utilisation": 0.9 if sched else 0.5,
                "makespan": 1000.0 if sched else 2000.0,
                "us_per_job": {"fcfs": 1.0, "easy": 50.0 * load, "flex": 60.0 * load}.get(p, 20.0),
                "mean_slowdown": load * (1.0 if p in ("tabu", "flex") else 2.0),
            }
    m[(egedf.INTERARRIVALS[-1], "tabu")]["delayed_pct"] = over.get("tabu_low", 1.0)
    m[(egedf.INTERARRIVALS[-1], "egedf")]["delayed_pct"] = 1.5
    return m


def test_every_claim_holds_on_means_built_to_satisfy_them() -> None:
    """Means shaped like the paper's figures: every verdict is 'holds'."""
    verdicts = egedf.claims(means())
    assert len(verdicts) == 14
    assert [c for c, ok, _ in verdicts if not ok] == []


def test_a_claim_fails_when_the_numbers_contradict_it() -> None:
    """Tabu at 5 s: 9% delayed, more than at 4 s and than FCFS: the four Fig. 1 claims differ."""
    verdicts = {c: ok for c, ok, _ in egedf.claims(means(tabu_low=9.0))}
    failed = [c for c, ok in verdicts.items() if not ok]
    assert len(failed) == 4 and all(c.startswith("Fig. 1") for c in failed)


def test_cli_reproduce_egedf_tiny(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """30 jobs, 1 repetition: the table, 14 verdicts with numbers, the figure and the CSV."""
    out = tmp_path / "rep"
    argv = ["study", "reproduce", "egedf", "--jobs", "30", "--repetitions", "1", "--out",
            str(out), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert text.count("[holds]") + text.count("[differs]") == 14
    assert "30 jobs per stream, 1 repetition," in text
    assert (out / "egedf-figures.png").stat().st_size > 0
    assert (out / "egedf-means.csv").read_text().count("\n") == 1 + 25
    assert main(["study", "reproduce"]) == 0
    assert "egedf" in capsys.readouterr().out


def test_workers_give_the_serial_means() -> None:
    """Two worker processes: every mean equals the serial run's except the scheduler time."""
    serial = egedf.run(20, 2, seed=3)
    pooled = egedf.run(20, 2, seed=3, workers=2)
    assert serial.means.keys() == pooled.means.keys()
    for key, row in serial.means.items():
        assert {c: v for c, v in row.items() if c != "us_per_job"} == {
            c: v for c, v in pooled.means[key].items() if c != "us_per_job"}


def test_cli_refuses_other_executors(capsys: pytest.CaptureFixture[str]) -> None:
    """egedf runs on local processes: --executor dask is one clear line naming the experiments
    that take it, and exit code 2."""
    assert main(["study", "reproduce", "egedf", "--executor", "dask", "--jobs", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--executor applies to 'css-criteria'" in err[0]
    assert "'egedf'" not in err[0]
