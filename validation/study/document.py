"""The report of a study of any kind: one layout, one place for its Findings.

Every kind's ``report.md`` is a head (title, setting, the command that reruns
the study, warnings), then the **Findings** section, then the kind's own
sections (tables, figures, errors). :func:`write_markdown` assembles it for
the three kinds; :func:`findings_section` is the one place where a kind's
Findings are rendered. ``study.json`` names the study whose report a folder
holds (:func:`write_identity`; docs/study-reliability.md, "Outputs never
overwrite inputs").
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def write_identity(info: Mapping[str, Any], out: Path) -> None:
    """Write ``study.json`` (hash of the study's key, spec, version) to ``out``."""
    from validation.study.report import IDENTITY_FILE, identity

    ident = identity(info["spec"], info["version"])
    (out / IDENTITY_FILE).write_text(json.dumps(ident, indent=1) + "\n", encoding="utf-8")


def findings_section(kind: str, rows: Sequence[Mapping[str, Any]],
                     spec: Any) -> tuple[str, str]:  # fmt: skip
    """Return the Findings of a study of ``kind`` from its rows: (Markdown section, terminal
    text).

    The one place every kind's Findings are rendered: statements computed from
    the rows with their sample sizes and intervals (docs/studies.md).
    """
    if kind == "cluster":
        from validation.study.cluster.report import findings as cluster

        return cluster(rows)
    if kind == "schedule-gap":
        from validation.study.schedule.report import findings as schedule_gap

        return schedule_gap(rows, spec.time_limit)
    from validation.study.report import findings as gap

    return gap(rows, spec)


def assemble(head: Sequence[str], findings: str, body: Sequence[str]) -> str:
    """Return ``report.md``: the head lines, the Findings section (if any), the body lines."""
    lines = list(head)
    if findings:
        lines += [findings.rstrip("\n"), ""]
    return "\n".join([*lines, *body]) + "\n"


def write_markdown(out: Path, kind: str, info: Mapping[str, Any],
                   rows: Sequence[Mapping[str, Any]], head: Sequence[str],
                   body: Sequence[str]) -> tuple[Path, str]:  # fmt: skip
    """Write ``out/report.md`` of a study of ``kind``: head, Findings, body; return its path
    and the Findings' terminal text."""
    path = out / "report.md"
    found_md, found_text = findings_section(kind, rows, info["spec"])
    text = assemble(head, found_md, body)
    path.write_text(text, encoding="utf-8")
    return path, found_text
