"""The interface every study kind implements, and what running and reporting one returns.

A kind (``gap``, ``cluster``, ``schedule-gap``; :mod:`validation.study.registry`) is a
:class:`StudyKind`: it declares its command-line arguments and builds its spec from
them, describes its work as :class:`~validation.study.engine.runner.Units`, names its
store (format, schema, rows) and renders its report's own sections
(:class:`ReportParts`). Everything else is shared: the run loop
(:meth:`StudyKind.run`), the report layout and its Findings
(:meth:`StudyKind.write_report`, one signature for every kind, returning a
:class:`Report`), the ``study list``/``report``/``export`` commands, and the
``planner study KIND`` command (``planner.cli.study``). docs/studies.md, "Adding a
study kind", walks through a new one.
"""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from validation.study.engine import document
from validation.study.engine.executors import Executor
from validation.study.engine.figures import DEFAULT_FORMATS
from validation.study.engine.runner import Units, run_units
from validation.study.engine.storage import StudyStore


@dataclass(frozen=True)
class Outcome:
    """A finished (or resumed-and-finished) study of any kind.

    ``units``: the study's units; ``written``: those computed by this run; ``rows``: the
    study's verified rows.
    """

    study: int
    units: int
    written: int
    rows: list[dict[str, Any]] = field(repr=False)


@dataclass(frozen=True)
class ReportParts:
    """What a kind contributes to its report (:meth:`StudyKind.render`).

    Parameters
    ----------
    head
        ``report.md``'s first lines: title, setting, the command that reruns the study,
        warnings (the Findings follow them).
    body
        ``report.md``'s sections after the Findings (tables, figures, errors).
    summary
        The summary records (one per table line).
    table, wide_table
        The summary for the terminal: within 100 columns (with its legend), and every
        column (``--wide``).
    files
        Every file the kind wrote in the folder besides ``report.md`` and ``study.json``.
    problems
        One line each for what makes the study's exit status 1 (error rows, checker
        violations, a replay better than a proven optimum); empty when clean.
    """

    head: list[str]
    body: list[str]
    summary: list[dict[str, Any]]
    table: str
    wide_table: str
    files: list[Path]
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Report:
    """A written report (:meth:`StudyKind.write_report`), the same type for every kind.

    ``path``: its ``report.md``; ``findings``: the Findings as terminal text; ``files``:
    every file written (``report.md`` first); ``problems``: as in :class:`ReportParts`.
    """

    path: Path
    summary: list[dict[str, Any]]
    table: str
    wide_table: str
    findings: str
    files: list[Path]
    problems: list[str]

    def text(self, wide: bool = False) -> str:
        """Return the summary table (``wide``: every column) for the terminal."""
        return self.wide_table if wide else self.table


class StudyKind(ABC):
    """One study kind: what differs between kinds, and the shared run and report around it.

    A subclass sets the class attributes and implements the abstract methods; it is
    registered by one line in :data:`validation.study.registry.KINDS`.
    """

    name: ClassVar[str]
    """The ``planner study`` subcommand and the registry key."""
    help: ClassVar[str]
    """The subcommand's one-line help."""
    unit: ClassVar[str]
    """The name of one unit of work ("instance", "replay", "snapshot")."""
    store: ClassVar[type[StudyStore]]
    """The store class: format marker, schema, row columns (``store.COLUMNS``)."""
    database: ClassVar[str]
    """The database's file name in the output folder (``study-out/DATABASE``)."""
    list_columns: ClassVar[tuple[str, ...]]
    """The columns of ``planner study list``."""
    figures: ClassVar[tuple[str, ...]] = ()
    """The names of the report's figures (``NAME.png``; ``NAME.svg`` on request)."""
    epilog: ClassVar[str | None] = None
    """Text under the subcommand's ``--help``."""
    family_params: ClassVar[bool] = False
    """True: unknown ``--NAME VALUE`` options are collected in ``args.params`` (the family
    parameters of a gap study, as ``planner generate`` takes them)."""

    # --- the command line ---------------------------------------------------------------

    @abstractmethod
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the kind's own options (the common ones, ``--db`` to ``--wide``, are added by
        the CLI; :mod:`validation.study.engine.options` has the argument types)."""

    @abstractmethod
    def spec_from_args(self, args: argparse.Namespace) -> Any:
        """Return the study's spec from the parsed options (StudyError: one line)."""

    def check(self, spec: Any) -> None:
        """Refuse, before anything is written, a spec that cannot run (StudyError)."""
        return None

    def threads(self, spec: Any) -> int:
        """Return the solver threads of one unit (the default worker count divides by it)."""
        return 1

    def check_outputs(self, args: argparse.Namespace) -> None:
        """Refuse, before any work, an extra output the kind's options name (StudyError)."""
        return None

    def write_outputs(self, args: argparse.Namespace,
                      rows: Sequence[Mapping[str, Any]]) -> list[Path]:  # fmt: skip
        """Write the extra outputs the kind's options ask for; return their paths."""
        return []

    @abstractmethod
    def headline(self, spec: Any, outcome: Outcome, store: StudyStore) -> str:
        """Return the line printed after a run (units, computed now, rows, database)."""

    # --- running ----------------------------------------------------------------------

    @abstractmethod
    def units(self, spec: Any, store: StudyStore) -> Units:
        """Return the study's work: its units, the worker function and how rows read back."""

    def run(self, spec: Any, store: StudyStore, *, executor: Executor | None = None,
            version: str | None = None, progress: bool | None = None,
            stop_after: int | None = None) -> Outcome:  # fmt: skip
        """Run (or resume) a study: every unit not yet in ``store``, written as it completes.

        Parameters
        ----------
        spec
            The study.
        store
            The database; finished units of the same study are skipped (resume).
        executor
            Where units run (default: in this process).
        version
            Recorded with the study (default: ``planner.__version__``).
        progress
            Show a progress line (default: on a terminal without ``CI``).
        stop_after
            Raise :class:`~validation.study.engine.runner.StudyStopped` after writing this
            many units (tests simulate an interruption with it).
        """
        if version is None:
            from planner import __version__

            version = __version__
        units = self.units(spec, store)  # a kind checks its names here, before any work
        study, written, rows = run_units(store, spec, version, units, executor=executor,
                                         progress=progress, stop_after=stop_after)  # fmt: skip
        return Outcome(study, len(units.expected), written, rows)

    # --- reading ----------------------------------------------------------------------

    def rows(self, store: StudyStore, info: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Return a study's rows, verified against its done records and its spec."""
        return store.study_rows(dict(info))

    @abstractmethod
    def listing(self, info: Mapping[str, Any]) -> dict[str, Any]:
        """Return one study's ``planner study list`` row: column → value."""

    @abstractmethod
    def prefix(self, spec: Any) -> str:
        """Return the report folder's name before its hash (``study-out/PREFIX-HASH``)."""

    def default_dir(self, base: str | Path, spec: Any, version: str) -> Path:
        """Return the report folder of a study under ``base``: ``PREFIX-HASH``."""
        return Path(base) / f"{self.prefix(spec)}-{document.identity(spec, version)['key'][:10]}"

    def report_files(self) -> tuple[str, ...]:
        """Return the names of the files a report writes in its folder (``errors/`` aside)."""
        drawn = tuple(f"{f}.{ext}" for f in self.figures for ext in ("png", "svg"))
        return (*document.REPORT_FILES, *drawn)

    # --- reporting --------------------------------------------------------------------

    @abstractmethod
    def findings(self, rows: Sequence[Mapping[str, Any]], spec: Any) -> tuple[str, str]:
        """Return the Findings: (Markdown section, terminal text) (docs/studies.md)."""

    @abstractmethod
    def render(self, store: StudyStore, info: Mapping[str, Any],
               rows: Sequence[Mapping[str, Any]], out: Path, formats: Sequence[str],
               progress: bool | None) -> ReportParts:  # fmt: skip
        """Write the kind's own report files to ``out`` (tables, figures) and return the
        rest of the report (:class:`ReportParts`)."""

    def write_report(self, store: StudyStore, study: int, out: str | Path,
                     formats: Sequence[str] = DEFAULT_FORMATS,
                     progress: bool | None = None) -> Report:  # fmt: skip
        """Write the report of ``study`` to the folder ``out``; the same for every kind.

        ``report.md`` (head, Findings, the kind's sections), ``study.json`` (which study
        the folder holds), the kind's tables and its figures (PNG, plus SVG when
        ``formats`` holds ``svg``; none without matplotlib). On a terminal a timed
        progress line names the folder (``progress``: None on a terminal only,
        :mod:`planner.progress`).

        Raises
        ------
        StudyError
            One line: the folder holds another study's report, or one of its files
            would be the database; the study's rows are damaged.
        """
        from planner.progress import phase

        out = Path(out)
        info = store.info(study)
        document.check_out(out, info["spec"], info["version"], store.path, self.report_files())
        rows = self.rows(store, info)
        out.mkdir(parents=True, exist_ok=True)
        document.write_identity(info, out)
        with phase(f"writing the report in {out}", enabled=progress):
            parts = self.render(store, info, rows, out, tuple(formats), progress)
            path, found_text = document.write_markdown(out, self, info, rows, parts.head,
                                                       parts.body)  # fmt: skip
        files = [path, out / document.IDENTITY_FILE, *parts.files]
        return Report(path, parts.summary, parts.table, parts.wide_table, found_text, files,
                      parts.problems)  # fmt: skip
