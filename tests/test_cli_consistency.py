"""CLI consistency: ``planner list``, did-you-mean errors, 1-based alternatives, time limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from instances import CRITERIA, FAMILIES, generate, write_instance
from models import COMBINATION_SOLVERS, JOINT_SOLVERS, PROBLEMS, SOLVERS
from planner import ALGORITHMS
from planner.cli import list as list_cmd
from planner.cli import main

EXAMPLE = "instances/data/example.json"


@pytest.fixture
def tiny_file(tmp_path: Path) -> Path:
    """Write the 3-job tiny instance of seed 0 and return its path."""
    path = tmp_path / "tiny.json"
    write_instance(generate("tiny", 0, jobs=3), path)
    return path


def _json_lines(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict]:
    assert main([*argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_list_shows_every_registry_name(capsys: pytest.CaptureFixture[str]) -> None:
    """``planner list`` prints every algorithm, alias, criterion, family, solver, problem,
    cluster and VO policy, workload family and bundled trace."""
    from instances import WORKLOAD_FAMILIES
    from instances.traces.bundled import bundled_traces
    from planner.cluster.policies import POLICIES as CLUSTER
    from planner.vo.policies import POLICIES as VO

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    names = [*ALGORITHMS, *CRITERIA, *FAMILIES, *SOLVERS, *COMBINATION_SOLVERS, *JOINT_SOLVERS]
    names += [*CLUSTER, *VO, *WORKLOAD_FAMILIES, *bundled_traces()]
    assert len(bundled_traces()) >= 4  # the three logs and the HPC2N machines file
    names += [a for alg in ALGORITHMS.values() for a in alg.aliases]
    names += [p.name for p in PROBLEMS.values()]
    missing = [n for n in names if n not in out]
    assert missing == []
    assert [line for line in out.splitlines() if line.startswith("== ")] == [
        f"== {s}" for s in list_cmd.SECTIONS
    ]


def test_list_reads_the_registry(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A name added to a registry appears without a change to the command."""
    from planner.cluster.policies import POLICIES as CLUSTER
    from planner.vo.policies import POLICIES as VO

    class Mine:
        """A user's own policy."""

    monkeypatch.setitem(SOLVERS, "my_solver", "a user's own backend")
    monkeypatch.setitem(CLUSTER, "my_cluster_policy", Mine)
    monkeypatch.setitem(VO, "my_vo_policy", Mine)
    for section, name in [("solvers", "my_solver"), ("cluster-policies", "my_cluster_policy"),
                          ("vo-policies", "my_vo_policy")]:  # fmt: skip
        assert main(["list", section]) == 0
        assert name in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [
        (["solve", EXAMPLE, "--algorithm", "min_cots"], "min_cost"),  # algorithm typo
        (["solve", EXAMPLE, "--algorithm", "multiple_bets"], "multiple_best"),  # alias typo
        (["exact", EXAMPLE, "--criterion", "max_qq"], "max_q"),  # criterion typo
        (["exact", EXAMPLE, "--solver", "cpsta"], "cpsat"),  # solver typo
        (["generate", "toporkov2021", "--seed", "1"], "toporkov2018"),  # family typo
        (["study", "gap", "--family", "tny"], "tiny"),  # study family typo
        (["study", "gap", "--algorithms", "mincost"], "min_cost"),  # study algorithm typo
        (["study", "reproduce", "timng"], "timing"),  # experiment typo
        (["simulate", EXAMPLE, "--policy", "eassy"], "easy"),  # cluster policy typo
        (["flow", "css2015", "--policy", "slcer"], "slicer"),  # VO policy typo
        (["generate", "tiny", "--seed", "1", "--node", "3"], "nodes"),  # parameter typo
        (["combine", EXAMPLE, "--problem", "8", "--solver", "cpstat"], "cpsat"),  # combination
        (["list", "algoritms"], "algorithms"),  # list section typo
    ],
)
def test_misspelt_names_get_a_suggestion(
    capsys: pytest.CaptureFixture[str], argv: list[str], suggestion: str
) -> None:
    """An unknown name is one line, exit 2, with "did you mean" the closest name."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"(did you mean '{suggestion}'?)" in err


def test_no_suggestion_for_a_name_far_from_all(capsys: pytest.CaptureFixture[str]) -> None:
    """A name like none of the options gets the list only, no guess."""
    assert main(["exact", EXAMPLE, "--solver", "gurobi"]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "choose from: cpsat" in err


def test_combine_numbers_alternatives_like_alternatives(
    tiny_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same window carries the same 1-based number in ``alternatives`` and ``combine``."""
    alts = _json_lines(capsys, "alternatives", str(tiny_file), "--algorithm", "amp")
    number = {(a["job"], json.dumps(a["window"], sort_keys=True)): a["alternative"]
              for a in alts if a["window"] is not None}  # fmt: skip
    *jobs, _summary = _json_lines(capsys, "combine", str(tiny_file), "--problem", "8")
    placed = [j for j in jobs if j["status"] == "placed"]
    assert placed
    for j in placed:
        assert j["alternative"] >= 1
        assert number[(j["job"], json.dumps(j["window"], sort_keys=True))] == j["alternative"]


def test_time_limit_none_and_default(tiny_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--time-limit none`` means no limit; the default is the documented 60 s."""
    from models.progress import DEFAULT_TIME_LIMIT as MODELS_DEFAULT
    from planner.cli.common import DEFAULT_TIME_LIMIT, time_limit

    assert DEFAULT_TIME_LIMIT == MODELS_DEFAULT == 60.0
    assert time_limit("none") is None and time_limit("2.5") == 2.5
    rec = _json_lines(capsys, "exact", str(tiny_file), "--time-limit", "none")
    assert all(r["status"] in ("optimal", "infeasible") for r in rec)


def test_list_cites_papers_by_author_and_year(capsys: pytest.CaptureFixture[str]) -> None:
    """Sources are shown as author-year citations, whatever shorthand the registry uses."""
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "seed 0" not in out and "SPEC" not in out
    assert "Toporkov et al. 2011 §3 (ALP)" in out
    cited = list_cmd.cite("seed 004 §4.2 (MaxQ Lite)")
    assert cited == "Toporkov & Yemelyanov 2018 §4.2 (MaxQ Lite)"


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", EXAMPLE, "--algorithm", "min_cost"],  # a heuristic's window
        ["exact", EXAMPLE, "--criterion", "min_cost"],  # the exact window
        ["alternatives", EXAMPLE, "--algorithm", "amp"],  # the alternatives
        ["combine", EXAMPLE, "--problem", "8"],  # the chosen combination
    ],
)
def test_one_node_list_format_in_every_table(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Each table prints a window's nodes as one comma-joined field (docs/formats.md): the
    nodes of the JSON output's placements, in order."""
    assert main(argv) == 0
    table = capsys.readouterr().out.splitlines()
    assert main([*argv, "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    lists = [[p["node"] for p in r["window"]["placements"]] for r in records if r.get("window")]
    assert lists
    for nodes in lists:
        assert any(",".join(nodes) in line.split() for line in table[2:]), (nodes, table)
