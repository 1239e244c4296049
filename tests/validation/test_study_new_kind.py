"""docs/studies.md's "Adding a study kind" example, as written there, is a working kind.

The page's module is written to a temporary package, its kind added to the registry
(the one entry a new kind needs), and ``planner study`` runs, resumes, lists,
re-renders and exports it like the three built-in kinds.
"""

from __future__ import annotations

import csv
import importlib
import re
import sys
from pathlib import Path

import pytest

from planner.cli import main
from validation.study import registry

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _example() -> str:
    """The first Python block of the "Adding a study kind" section."""
    page = (DOCS / "studies.md").read_text(encoding="utf-8")
    section = page[page.index("### Adding a study kind"):]
    return re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)  # type: ignore[union-attr]


@pytest.fixture
def altcount(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """The page's kind, importable as ``altcount_example.kind`` and registered."""
    package = tmp_path / "altcount_example"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kind.py").write_text(_example(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("altcount_example.kind")
    monkeypatch.setitem(registry.KINDS, "altcount", module.ALTCOUNT)
    yield module
    sys.modules.pop("altcount_example.kind", None)
    sys.modules.pop("altcount_example", None)


def test_the_documented_kind_runs_resumes_and_reads_back(
    altcount: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run, rerun (nothing computed), list, export and re-render the page's kind."""
    out, db = tmp_path / "o", tmp_path / "o" / "altcount.sqlite"
    argv = ["study", "altcount", "--instances", "3", "--out", str(out), "--workers", "1",
            "--quiet"]  # fmt: skip
    assert main(argv) == 0
    assert "3 instances (3 computed now)" in capsys.readouterr().out
    assert main(argv) == 0
    assert "3 instances (0 computed now)" in capsys.readouterr().out
    assert main(["study", "list", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[:4] == ["1", "tiny", "3", "3"]
    assert main(["study", "export", "--db", str(db), "-o", str(tmp_path / "rows.csv")]) == 0
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6 and list(rows[0]) == ["instance", "algorithm", "alternatives"]
    assert main(["study", "report", "--db", str(db), "--out", str(tmp_path / "again")]) == 0
    assert "# Alternatives per instance" in (tmp_path / "again" / "report.md").read_text()
