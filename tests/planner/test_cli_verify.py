"""``planner verify`` (planner/cli/verify.py, docs/verify.md) against small Python programs.

``programs/amp_like.py`` prints planner's own answers in the minimal form (a
correct implementation) or plants a bug: the budget test written ``cost < S``,
a crash on square instances, a line that is not JSON, an answer that never
comes. Runs use a small corpus (``--scale``) and the program's
``{instances}`` form, so each is a handful of program runs.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from instances import read_instance
from planner.cli import main

PROGRAM = str(Path(__file__).parent / "programs" / "amp_like.py")


def _verify(capsys: pytest.CaptureFixture[str], out: Path, mode: str, *extra: str,
            algorithm: str = "amp", many: bool = True) -> tuple[int, str, str]:  # fmt: skip
    argv = ["verify", "--algorithm", algorithm, "--out", str(out), *extra, "--",
            sys.executable, PROGRAM, algorithm, mode, "{instances}" if many else "{instance}"]
    code = main(argv)
    got = capsys.readouterr()
    return code, got.out, got.err


def test_a_correct_program_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """planner's own answers: every job identical, exit 0, nothing written."""
    code, out, _ = _verify(capsys, tmp_path / "out", "ok", "--scale", "0.05")
    rows = out.splitlines()
    assert code == 0, out
    assert rows[0].startswith("verify amp (solve): 7 instances, 132 jobs, 1 program run")
    assert rows[1] == ("  identical 132, ties 0, differ 0, infeasible 0, missing 0, crashed 0, "
                       "timed out 0")  # fmt: skip
    assert rows[-1] == "132 jobs, all identical or tied" and not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_planted_bug_is_caught_and_shrunk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cost < S``: jobs differ, exit 3; each counterexample has at most 3 nodes and 3 slots
    per node, both answers, the explanation, and a rerun command that fails again."""
    code, out, err = _verify(capsys, tmp_path / "out", "strict-budget", "--scale", "0.1")
    assert code == 3 and "differ 0" not in out
    folders = sorted((tmp_path / "out").iterdir())
    assert folders and "wrote" in err
    for folder in folders:
        names = {p.name for p in folder.iterdir()}
        assert names == {"instance.json", "original.json", "expected.jsonl", "actual.jsonl",
                         "explanation.txt"}  # fmt: skip
        inst = read_instance(folder / "instance.json")
        per_node = max(sum(s.node == n.id for s in inst.slots) for n in inst.nodes)
        assert len(inst.jobs) == 1 and len(inst.nodes) <= 3 and per_node <= 3, folder
        text = (folder / "explanation.txt").read_text(encoding="utf-8")
        assert "<= S = " in text and "verdict: differs" in text
    first = (folders[0] / "explanation.txt").read_text(encoding="utf-8")
    rerun = next(x for x in first.splitlines() if x.startswith("rerun: "))[len("rerun: "):]
    argv = shlex.split(rerun)
    assert argv[:2] == ["planner", "verify"]
    assert main([*argv[1:argv.index("--")], "--no-shrink", "--out", str(tmp_path / "again"),
                 *argv[argv.index("--"):]]) == 3  # fmt: skip


@pytest.mark.slow
def test_same_seed_same_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs with the same seed write identical counterexamples (paths aside)."""
    for name in ("a", "b"):
        _verify(capsys, tmp_path / name, "strict-budget", "--scale", "0.05", "--seed", "3",
                "--counterexamples", "1")  # fmt: skip
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.*"))
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.*"))
    assert files_a == files_b and files_a
    for rel in files_a:
        a = (tmp_path / "a" / rel).read_text(encoding="utf-8")
        b = (tmp_path / "b" / rel).read_text(encoding="utf-8")
        assert a.replace(str(tmp_path / "a"), "OUT") == b.replace(str(tmp_path / "b"), "OUT")


def test_alternatives_of_a_correct_program(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """--alternatives: planner's alternatives search, printed in the order found, agrees."""
    code, out, _ = _verify(capsys, tmp_path, "alternatives", "--alternatives", "--scale",
                           "0.05")  # fmt: skip
    assert code == 0 and "verify amp (alternatives)" in out and "all identical or tied" in out


@pytest.mark.parametrize(
    ("mode", "verdict"),
    [
        ("crash-square", "crashed"),  # exits 1 on square instances
        ("garbage", "crashed"),  # a line that is not JSON: bad output
    ],
)
def test_failing_runs_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  mode: str, verdict: str) -> None:  # fmt: skip
    """Crashes and bad output count their jobs (the batch rerun one instance at a time)."""
    code, out, _ = _verify(capsys, tmp_path, mode, "--scale", "0.05", "--no-shrink",
                           "--counterexamples", "1")  # fmt: skip
    counts = dict(part.rsplit(" ", 1) for part in out.splitlines()[1].strip().split(", "))
    assert code == 3 and int(counts["crashed"]) > 0
    assert f"counterexample 1: {verdict}" in out


def test_a_program_that_never_answers_times_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run past --time-limit is stopped; its jobs count as timed out (not shrunk)."""
    one = tmp_path / "one.json"
    from instances import generate, write_instance

    write_instance(generate("tiny", 1), one)
    code, out, _ = _verify(capsys, tmp_path / "out", "sleep", "--instance", str(one),
                           "--time-limit", "1", many=False)  # fmt: skip
    assert code == 3 and "timed out 2" in out and "no answer within 1 s" in out


def test_export_and_run_the_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--export writes instances, expected lines and a manifest; --corpus runs a program on
    them offline."""
    corpus = tmp_path / "corpus"
    assert main(["verify", "--export", str(corpus), "--algorithm", "amp", "--scale", "0.05"]) == 0
    capsys.readouterr()
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["format"], manifest["algorithm"], manifest["mode"]) == (
        "planner.conformance/1", "amp", "solve")  # fmt: skip
    assert manifest["jobs"] == 132 and len(manifest["cases"]) == 7
    assert "n cheapest alive slots" in manifest["ties"]
    case = manifest["cases"][0]
    assert (corpus / case["instance"]).is_file() and (corpus / case["expected"]).is_file()
    code = main(["verify", "--corpus", str(corpus), "--out", str(tmp_path / "out"), "--",
                 sys.executable, PROGRAM, "amp", "ok", "{instances}"])  # fmt: skip
    assert code == 0 and "132 jobs, all identical or tied" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["verify", "--algorithm", "amp"], "name the program after --"),  # no program
        (["verify", "--algorithm", "amp", "--", "prog"], "must name the instance"),  # no path
        (["verify", "--algorithm", "amp", "--", "prog", "--in={instances}"],
         "{instances} must be an argument of its own"),  # inside another argument
        (["verify", "--algorithm", "ampp", "--", "p", "{instance}"], "unknown algorithm"),
        (["verify", "--", "p", "{instance}"], "--algorithm NAME is required"),  # no algorithm
        (["verify", "--export", "x", "--algorithm", "amp", "--", "p", "{instance}"],
         "--export runs no program"),  # both
        (["verify", "--algorithm", "amp", "--scale", "0.05", "--",
          "/nonexistent/program", "{instance}"], "cannot run /nonexistent/program"),
    ],
)
def test_usage_errors(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad usage and a program that cannot start: one stderr line, exit 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


@pytest.mark.slow
def test_json_summary_locates_the_first_disagreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json: first_disagreement is the corpus position of the first failing job (null when
    all agree); each counterexample gives its sizes as numbers and its generated job."""
    code, out, _ = _verify(capsys, tmp_path / "bad", "strict-budget", "--scale", "0.05",
                           "--no-shrink", "--counterexamples", "1", "--json")  # fmt: skip
    summary = json.loads(out)
    assert code == 3 and 1 <= summary["first_disagreement"] <= summary["jobs"]
    (cx,) = summary["counterexamples"]
    inst = read_instance(tmp_path / "bad" / "counterexample-1" / "instance.json")
    assert cx["dimensions"]["nodes"] == len(inst.nodes)
    assert cx["dimensions"]["slots"] == len(inst.slots) and cx["shrink_runs"] == 0
    assert any(j.id == cx["source_job"] for j in inst.jobs)  # unshrunk: the generated instance
    code, out, _ = _verify(capsys, tmp_path / "ok", "ok", "--scale", "0.05", "--json")
    assert code == 0 and json.loads(out)["first_disagreement"] is None
