"""Tests of the study database: foreign or corrupted files, uniqueness, export."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest
from test_study_runner import FAKE, SPEC

from planner.cli import main
from validation.study import COLUMNS, Store, StudyError, export_csv, run_study


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE people (name TEXT)")
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_bytes(b"this is not sqlite" * 100), "not a planner study database"),
        (_foreign, "not a planner.study/1 database"),
        (lambda p: p.mkdir(), "cannot use the database"),  # a directory
    ],
)
def test_bad_database_is_one_line(tmp_path: Path, make: object, message: str) -> None:
    """A corrupted file, another program's SQLite file or a directory: one-line StudyError."""
    path = tmp_path / "bad.sqlite"
    make(path)  # type: ignore[operator]
    with pytest.raises(StudyError, match=message) as err:
        Store(path)
    assert "\n" not in str(err.value)


def test_a_new_database_is_created_in_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Schema and format marker commit together: a kill in between cannot leave a database
    that later runs reject as foreign ("no planner format marker")."""
    statements: list[str] = []
    connect = sqlite3.connect

    def tracing(*args: object, **kwargs: object) -> sqlite3.Connection:
        db = connect(*args, **kwargs)  # type: ignore[arg-type]
        db.set_trace_callback(statements.append)
        return db

    monkeypatch.setattr(sqlite3, "connect", tracing)
    Store(tmp_path / "new.sqlite").close()
    upper = [s.strip().upper() for s in statements]
    creates = [i for i, s in enumerate(upper) if s.startswith("CREATE TABLE")]
    marker = next(i for i, s in enumerate(upper) if s.startswith("INSERT INTO META"))
    begin = max(i for i, s in enumerate(upper) if s.startswith("BEGIN") and i < min(creates))
    commit = min(i for i, s in enumerate(upper) if s.startswith("COMMIT") and i > begin)
    assert begin < min(creates) and max(creates) < commit and begin < marker < commit


def test_bad_database_exits_2_in_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``planner study report`` on a foreign database: exit 2, one line naming the study
    formats, no traceback."""
    path = tmp_path / "foreign.sqlite"
    _foreign(path)
    assert main(["study", "report", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a planner study database" in err
    assert "planner.study/1, planner.cluster-study/1, planner.schedule-gap-study/1" in err


def test_rows_are_unique_per_key(tmp_path: Path) -> None:
    """Writing an instance twice violates the UNIQUE key and leaves the database unchanged."""
    from validation.study import evaluate_instance, resolve

    ctx = resolve(SPEC, FAKE)
    result = evaluate_instance(ctx, 0)
    with Store(tmp_path / "db.sqlite") as store:
        sid = store.study(SPEC, "test")
        store.write(sid, result)
        with pytest.raises(sqlite3.IntegrityError):
            store.write(sid, result)
        assert len(store.rows(sid)) == len(result.rows) and store.done(sid) == {0}


def test_csv_export_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The CSV has the COLUMNS header and one line per row; ``planner study export`` agrees."""
    db = tmp_path / "db.sqlite"
    with Store(db) as store:
        out = run_study(SPEC, store, toolkit=FAKE, version="test")
        rows = store.rows(out.study)
    export_csv(rows, tmp_path / "a.csv", Store.COLUMNS)
    assert main(["study", "export", "--db", str(db), "-o", str(tmp_path / "b.csv")]) == 0
    for name in ("a.csv", "b.csv"):
        with open(tmp_path / name, newline="") as fh:
            data = list(csv.DictReader(fh))
        assert list(data[0]) == [n for n, _ in COLUMNS] and len(data) == len(rows)
    assert main(["study", "list", "--db", str(db)]) == 0
    assert "tiny" in capsys.readouterr().out


def test_parquet_needs_pyarrow(tmp_path: Path) -> None:
    """Parquet export writes a table with pyarrow, and names the extra without it."""
    from validation.study import export_parquet

    try:
        import pyarrow.parquet as pq
    except ImportError:
        with pytest.raises(StudyError, match=r"planner\[parquet\]"):
            export_parquet([], tmp_path / "rows.parquet", Store.COLUMNS)
        return
    export_parquet([], tmp_path / "rows.parquet", Store.COLUMNS)
    assert pq.read_table(tmp_path / "rows.parquet").column_names == [n for n, _ in COLUMNS]
