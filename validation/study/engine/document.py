"""The report of a study of any kind: one layout, one place for its Findings.

Every kind's ``report.md`` is a head (title, setting, the command that reruns
the study, warnings), then the **Findings** section, then the kind's own
sections (tables, figures, errors). :func:`write_markdown` assembles it for
every kind; :func:`findings_section` is the one place where a kind's
Findings are rendered. ``study.json`` names the study whose report a folder
holds (:func:`write_identity`; docs/study-reliability.md, "Outputs never
overwrite inputs").
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validation.study.engine.errors import StudyError

if TYPE_CHECKING:
    from validation.study.engine.kind import StudyKind

IDENTITY_FILE = "study.json"
"""The file naming the study whose report a directory holds (spec, version, key)."""

REPORT_FILES: tuple[str, ...] = ("report.md", "summary.csv", "rows.csv", IDENTITY_FILE)
"""The files every report writes in its folder (a kind adds its figures)."""


def write_identity(info: Mapping[str, Any], out: Path) -> None:
    """Write ``study.json`` (hash of the study's key, spec, version) to ``out``."""
    ident = identity(info["spec"], info["version"])
    (out / IDENTITY_FILE).write_text(json.dumps(ident, indent=1) + "\n", encoding="utf-8")


def findings_section(kind: StudyKind, rows: Sequence[Mapping[str, Any]],
                     spec: Any) -> tuple[str, str]:  # fmt: skip
    """Return the Findings of a study of ``kind`` from its rows: (Markdown section, terminal
    text).

    The one place every kind's Findings are rendered: statements computed from
    the rows with their sample sizes and intervals (docs/studies.md).
    """
    return kind.findings(rows, spec)


def assemble(head: Sequence[str], findings: str, body: Sequence[str]) -> str:
    """Return ``report.md``: the head lines, the Findings section (if any), the body lines."""
    lines = list(head)
    if findings:
        lines += [findings.rstrip("\n"), ""]
    return "\n".join([*lines, *body]) + "\n"


def write_markdown(out: Path, kind: StudyKind, info: Mapping[str, Any],
                   rows: Sequence[Mapping[str, Any]], head: Sequence[str],
                   body: Sequence[str]) -> tuple[Path, str]:  # fmt: skip
    """Write ``out/report.md`` of a study of ``kind``: head, Findings, body; return its path
    and the Findings' terminal text."""
    path = out / "report.md"
    found_md, found_text = findings_section(kind, rows, info["spec"])
    text = assemble(head, found_md, body)
    path.write_text(text, encoding="utf-8")
    return path, found_text


def identity(spec: Any, version: str) -> dict[str, Any]:
    """Return the identity of a study's report: a hash of its key, its spec and version."""
    import hashlib

    digest = hashlib.sha256(spec.key(version).encode()).hexdigest()
    return {"key": digest, "spec": spec.to_dict(), "version": version}


def check_out(out: str | Path, spec: Any, version: str, db: str | Path | None = None,
              files: Sequence[str] = REPORT_FILES) -> None:
    """Check, before any work, that ``out`` may receive the report of this study.

    Raises
    ------
    StudyError
        One line: ``out`` is a file or lies under one, is not writable, holds the report
        of another study, or one of the report's files is the database ``db``.
    """
    import os

    out = Path(out)
    probe = out
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise StudyError(f"{out}: cannot write the report there ({probe} is not a directory)")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise StudyError(f"{out}: cannot write the report there ({probe} is not writable)")
    if db is not None and _is_report_file(Path(db), out, files):
        raise StudyError(f"{db}: the database would be overwritten by the report in {out}; "
                         "use another --out or --db")  # fmt: skip
    marker = out / IDENTITY_FILE
    mine = identity(spec, version)["key"]
    if marker.is_file():
        try:
            theirs = json.loads(marker.read_text(encoding="utf-8")).get("key")
        except (OSError, ValueError, AttributeError):
            theirs = None
        if theirs != mine:
            raise StudyError(f"{out}: holds the report of another study (see {marker}); "
                             "use another --out or remove it")  # fmt: skip
    elif (out / "report.md").exists():
        raise StudyError(f"{out}: holds a report of an unknown study (no {IDENTITY_FILE}); "
                         "use another --out or remove it")  # fmt: skip


def _is_report_file(db: Path, out: Path, files: Sequence[str]) -> bool:
    """True when ``db`` is (the same file as) one the report in ``out`` writes."""
    import os

    target = db.resolve()
    errors = (out / "errors").resolve()
    if target.parent == errors:
        return True
    for f in (out / name for name in files):
        if f.resolve() == target:
            return True
        try:
            if db.exists() and f.exists() and os.path.samefile(db, f):
                return True
        except OSError:
            continue
    return False


@contextmanager
def output_errors(out: str | Path) -> Iterator[None]:
    """Turn an OSError while creating or writing a report folder into a one-line StudyError
    (a bad output path is bad input: exit 2, docs/study-reliability.md)."""
    try:
        yield
    except OSError as err:
        where = err.filename if err.filename is not None else out
        raise StudyError(f"{where}: cannot write the report there "
                         f"({err.strerror or type(err).__name__})") from None
