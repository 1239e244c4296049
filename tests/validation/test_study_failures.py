"""The same failure ends every study kind with the same one line (docs/study-reliability.md).

A worker process that dies (a dead pool), a database that cannot take another row (a
full disk) and a damaged database: each is run against the three kinds through the
one run loop of ``planner study``, and the three stderr lines must be one line each and
equal once the database path is taken out, with the same exit code. The units written
before a failure are kept.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from planner.cli import main
from tests.validation.test_study_kinds import _argv, _count_units, _db
from validation.study.engine.storage import StudyStore
from validation.study.registry import KIND_NAMES, kind

pytestmark = pytest.mark.slow  # three studies per test


def die(task: Any) -> Any:
    """A unit that kills its worker process (module-level: it runs in a spawned worker)."""
    os._exit(3)


@pytest.fixture(autouse=True)
def no_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports without figures (none of these tests looks at them)."""
    from validation.study.engine import figures

    monkeypatch.setattr(figures, "available", lambda: False)
    for module in ("validation.study.gap.plots", "validation.study.cluster.report"):
        monkeypatch.setattr(f"{module}.available", lambda: False)
    monkeypatch.setattr("validation.study.schedule_gap.report.draw",
                        lambda summary, out, formats=(): [])  # fmt: skip


def _run(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
         extra: tuple[str, ...] = ()) -> tuple[int, str]:  # fmt: skip
    """Run a two-unit study of kind ``name``; return its exit code and its stderr with the
    database path replaced by ``DB``."""
    out = tmp_path / name
    code = main([*_argv(name, out, 2), *extra])
    err = capsys.readouterr().err
    return code, err.replace(str(_db(out)), "DB")


def _same_line_everywhere(results: dict[str, tuple[int, str]]) -> str:
    codes = {code for code, _ in results.values()}
    lines = {err for _, err in results.values()}
    assert len(codes) == 1 and len(lines) == 1, results
    (line,) = lines
    assert line.count("\n") == 1 and "Traceback" not in line and "internal error" not in line
    return line


def test_a_dead_worker_pool_is_one_line_for_every_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker process dies (``os._exit`` in a spawned worker of a 2-process pool): every
    kind exits 1 with the same line, and asks for a rerun."""
    results = {}
    for name in KIND_NAMES:
        k = kind(name)
        units = type(k).units
        monkeypatch.setattr(k, "units", lambda spec, store, k=k, units=units:
                            dataclasses.replace(units(k, spec, store), run=die))  # fmt: skip
        results[name] = _run(name, tmp_path, capsys, ("--workers", "2"))
    line = _same_line_everywhere(results)
    assert results["gap"][0] == 1
    assert line == "planner study: a worker process died; rerun the same command to resume\n"


def test_a_full_disk_is_one_line_for_every_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database cannot grow (SQLite's ``database or disk is full``, raised inside the
    second unit's transaction): every kind exits 2 with the same line; the first unit is
    kept, whole."""
    insert = StudyStore.write
    seen: dict[str, int] = {}

    def fill_up(self: StudyStore, study: int, result: Any) -> None:
        seen[self.path] = seen.get(self.path, 0) + 1
        if seen[self.path] == 2:
            original = self._insert

            def full(study: int, result: Any) -> None:
                original(study, result)
                raise sqlite3.OperationalError("database or disk is full")

            self._insert = full  # type: ignore[method-assign]
        insert(self, study, result)

    monkeypatch.setattr(StudyStore, "write", fill_up)
    results = {name: _run(name, tmp_path, capsys) for name in KIND_NAMES}
    line = _same_line_everywhere(results)
    assert results["gap"][0] == 2
    assert line == "planner study: DB: cannot write the database (database or disk is full)\n"
    for name in KIND_NAMES:
        assert _count_units(_db(tmp_path / name)) == 1  # the first unit, not half the second


def test_a_damaged_database_is_one_line_for_every_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finished study's database with its header overwritten: every kind's rerun exits 2
    with the same line, and the file is left as it was."""
    for name in KIND_NAMES:
        assert _run(name, tmp_path, capsys)[0] == 0
        db = _db(tmp_path / name)
        db.write_bytes(b"\0" * 100 + db.read_bytes()[100:])
    before = {name: _db(tmp_path / name).read_bytes() for name in KIND_NAMES}
    results = {name: _run(name, tmp_path, capsys) for name in KIND_NAMES}
    line = _same_line_everywhere(results)
    assert results["gap"][0] == 2 and "DB" in line, line
    assert all(_db(tmp_path / n).read_bytes() == before[n] for n in KIND_NAMES)
