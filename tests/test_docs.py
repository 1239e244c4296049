"""The documentation stands on its own: links resolve, anchors exist, citations are the papers'."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
OWN = ["index", "concepts", "algorithms", "exact-models", "formats", "studies", "families",
       "benchmarks", "references", "api"]  # fmt: skip
# pages written alongside (by the other parts of the project); linked, checked when present
OTHERS = ["guarantees", "study-reliability", "reproductions", "workloads", "job-flows",
          "cluster-benchmarks", "vo-flows"]  # fmt: skip
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # no headings inside code blocks
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def sources() -> list[Path]:
    return [ROOT / "README.md"] + [DOCS / f"{p}.md" for p in OWN]


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted(DOCS.glob("*.md"))],
                         ids=lambda p: p.name)  # fmt: skip
def test_links_resolve(page: Path) -> None:
    """Every relative link of README.md and of every docs page names an existing file (or a
    sibling page) and an existing anchor."""
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        if path.stem in OTHERS and path.parent == DOCS and not path.exists():
            continue  # a page of another part of the project, not in this build
        assert path.exists(), f"{page.name}: broken link {target}"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{page.name}: no anchor #{anchor} in {path.name}"


def test_index_links_every_page() -> None:
    """docs/index.md links every documentation page, the other parts' included, and the
    README's documentation table every page but the index."""
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = sorted(p.stem for p in DOCS.glob("*.md") if p.stem != "index")
    assert set(OWN[1:] + OTHERS) <= set(pages)
    for page in pages:
        assert f"]({page}.md)" in text, page
        assert f"](docs/{page}.md)" in readme, page


@pytest.mark.parametrize("page", sources(), ids=lambda p: p.name)
def test_cites_papers_not_developer_files(page: Path) -> None:
    """Shipped text cites docs pages and papers by author and year, never the developers' notes."""
    text = page.read_text(encoding="utf-8")
    for banned in ("SPEC §", "SPEC.md", "FORMATS", "seed 00", "seeds/", "../shared"):
        assert banned not in text, f"{page.name} cites {banned!r}"


def test_every_cited_paper_is_in_the_references() -> None:
    """Each author-year citation used in the docs has an entry in references.md."""
    refs = (DOCS / "references.md").read_text(encoding="utf-8")
    cited = set()
    for page in sources():
        cited |= set(re.findall(r"(Toporkov et al\. 20\d\d|Toporkov & Yemelyanov 20\d\d|"
                                r"Klusáček & Rudová 20\d\d|Mu'alem & Feitelson 20\d\d)",
                                page.read_text(encoding="utf-8")))  # fmt: skip
    assert cited
    for c in sorted(cited):
        assert f"**{c}**" in refs, c


def test_figure_and_citation_files() -> None:
    """The concepts figure, its script and CITATION.cff are present; the CFF names the papers."""
    assert (DOCS / "figures" / "windows.png").stat().st_size > 10_000
    assert (DOCS / "figures" / "make_figures.py").is_file()
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert cff.startswith("cff-version: 1.2.0")
    for needle in ("Metascheduling and heuristic co-allocation", "Parallel Workloads Archive",
                   "IBM SP2 with backfilling", "Klusáček"):  # fmt: skip
        assert needle in cff


def test_family_table_lists_every_default() -> None:
    """docs/families.md's family table gives each family's defaults as the registry has them."""
    from instances import FAMILIES

    rows = {}
    for line in (DOCS / "families.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"`\w+`", cells[0]) and "=" in cells[2]:
            rows.setdefault(cells[0].strip("`"), cells[2].strip("`"))
    paper_families = [n for n in FAMILIES if n in rows]
    assert paper_families == list(FAMILIES)  # every registered family has its row
    for name in paper_families:
        expected = " ".join(f"{k}={v}" for k, v in FAMILIES[name].defaults.items())
        assert rows[name] == expected, name


def _text_block(page: str, first_header: str) -> list[dict[str, str]]:
    """Return the rows of the aligned text table in ``page`` whose header starts with
    ``first_header``, as {header: cell}; the dashes line gives the columns."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(first_header))
    spans = [m.span() for m in re.finditer(r"-+", lines[at + 1])]
    end = next(k for k in range(at + 2, len(lines)) if not lines[k] or lines[k].startswith("```"))
    body = lines[at + 2 : end]
    head = [lines[at][a:b].strip() for a, b in spans]
    return [dict(zip(head, [ln[a:b].strip() for a, b in spans], strict=True)) for ln in body]


def test_studies_example_is_recomputed(tmp_path: Path) -> None:
    """docs/studies.md's example excerpt (the narrow table) and its reading are what the quick
    default's rows give today (recomputed on the excerpt's algorithms and geometry; the
    ``ms`` column is a time and varies)."""
    from validation.study import Store, StudySpec, run_study, summarise
    from validation.study.gap import QUICK
    from validation.study.gap.report import text_table

    shown = _text_block("studies.md", "geometry  algorithm")
    assert len(shown) >= 3
    spec = StudySpec(QUICK["family"], instances=QUICK["instances"], seed=QUICK["seed"],
                     algorithms=tuple(r["algorithm"] for r in shown),
                     geometries=tuple(dict.fromkeys(r["geometry"] for r in shown)))  # fmt: skip
    with Store(tmp_path / "db.sqlite") as store:
        summary = summarise(store.rows(run_study(spec, store, progress=False).study))
    for row in shown:
        got = next(s for s in summary if s["algorithm"] == row["algorithm"])
        lines = text_table([got]).splitlines()
        spans = [m.span() for m in re.finditer(r"-+", lines[1])]
        cells = {lines[0][a:b].strip(): lines[2][a:b].strip() for a, b in spans}
        for header, cell in row.items():
            if header in cells and header != "ms":
                assert cells[header] == cell, (row["algorithm"], header)
    text = (DOCS / "studies.md").read_text(encoding="utf-8")
    reading = " ".join(text[text.index("Read: of") :].split("\n\n")[0].split())
    coord = next(s for s in summary if s["algorithm"] == "coord_lite")
    maxq = next(s for s in summary if s["algorithm"] == "max_q_lite")
    jobs = coord["jobs"]
    for fact in (f"of {jobs} rows ({QUICK['instances']} instances",
                 f"matched the COORD optimum in {round(coord['exact_match_rate'] * 45)} of 45",
                 f"on average {coord['abs_gap_mean']:.2f} quanta",
                 f"matched in {round(maxq['exact_match_rate'] * 45)} of 45",
                 f"lost {100 * maxq['gap_mean']:.1f}% of Σq"):  # fmt: skip
        assert fact in reading, fact


def test_reproductions_list_is_the_registry() -> None:
    """docs/reproductions.md lists every experiment ``planner study reproduce`` runs, in the
    command's order, each with a link that resolves."""
    from validation.study.reproduce import REPRODUCTIONS

    page = DOCS / "reproductions.md"
    rows = [ln for ln in page.read_text(encoding="utf-8").splitlines()
            if re.match(r"\| `[a-z-]+` \|", ln)]  # fmt: skip
    names = [re.match(r"\| `([a-z-]+)`", ln).group(1) for ln in rows]  # type: ignore[union-attr]
    assert names[: len(REPRODUCTIONS)] == list(REPRODUCTIONS)
    for line in rows:
        for target in LINK.findall(line):
            file, _, anchor = target.partition("#")
            path = DOCS / file if file else page
            assert path.exists() and anchor in anchors(path), (line[:40], target)


def test_quick_default_is_described_as_it_is() -> None:
    """README and docs/studies.md describe the quick default study with the CLI's values."""
    from validation.study.gap import QUICK

    n, family = QUICK["instances"], QUICK["family"]
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").replace("#", "").split())
    assert f"on {n} generated instances, both geometries" in readme
    assert QUICK["geometries"] == ("rough", "square")
    studies = (DOCS / "studies.md").read_text(encoding="utf-8")
    assert f"quick default: {n} {family} instances, both geometries" in studies
    assert f"{n} `{family}` instances, seed {QUICK['seed']}" in studies
def test_reproductions_scoreboard_lists_every_experiment() -> None:
    """docs/reproductions.md opens with a scoreboard row per registered experiment (all of
    them, egedf included), each linking to an existing section."""
    from validation.study.reproduce.scoreboard import experiments

    text = (DOCS / "reproductions.md").read_text(encoding="utf-8")
    board = text[: text.index("\n## ")]
    rows = re.findall(r"^\| \[`([\w-]+)`\]\(([^)]+)\) \|", board, flags=re.M)
    assert [name for name, _ in rows] == experiments()
    for name, target in rows:
        file, _, anchor = target.partition("#")
        path = DOCS / (file or "reproductions.md")
        assert anchor in anchors(path), f"{name}: no anchor #{anchor} in {path.name}"
    counts = re.findall(r"\| (\d+) / (\d+) \| (\d+) \|", board)
    held, total = (sum(int(c[i]) for c in counts) for i in (0, 1))
    assert f"In all, {held} of {total} claims hold." in " ".join(text.split())


def _every_page() -> list[Path]:
    """README.md and every page of docs/, the other parts' pages included."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subparsers of ``parser`` by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_command_table_lists_every_command() -> None:
    """docs/formats.md's command table has a row for every command of the CLI's registry
    (``planner.cli.COMMANDS``) and names every ``planner study`` subcommand."""
    from planner.cli import COMMANDS, build_parser

    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    table = text[text.index("## Command line") :].split("\n\n**")[0]
    rows = re.findall(r"^\| `planner ([\w-]+)([^`]*)`", table, flags=re.M)
    assert sorted({name for name, _ in rows}) == sorted(COMMANDS)
    study = _subcommands(_subcommands(build_parser())["study"])
    (listed,) = [rest.split()[0] for name, rest in rows if name == "study"]
    assert sorted(listed.replace("\\|", "|").split("|")) == sorted(study)


def _planner_lines(text: str) -> list[str]:
    """Every ``planner ...`` command written in ``text``: in code blocks (a line, joined
    over ``\\`` continuations, up to a comment, pipe or redirection) and in inline code."""
    found = []
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S)
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0]
            found += re.findall(r"(?:^|[\s$;&(])planner ([^;&|>]*)", line)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for span in re.findall(r"`([^`]+)`", prose):
        found += re.findall(r"(?:^|[\s(])planner ([^;&>]*)", " ".join(span.split()))
    return found


def _family_options(name: str | None) -> set[str]:
    """The ``--NAME`` family parameters of ``name`` (of every family when not a family's)."""
    from instances import FAMILIES, WORKLOAD_FAMILIES

    families = {**FAMILIES, **WORKLOAD_FAMILIES}
    chosen = [families[name]] if name in families else list(families.values())
    return {"--" + k.replace("_", "-") for f in chosen for k in f.defaults}


EXAMPLE_KINDS = {"altcount"}
"""Study kinds docs/studies.md builds as an example ("Adding a study kind"; run by
tests/validation/test_study_new_kind.py), not registered in the CLI."""


def test_documented_options_exist() -> None:
    """Every ``planner CMD [SUB] ... --option`` written in README.md or docs/ names a
    command the CLI has and options its parser takes (family parameters for ``generate``
    and ``study gap``); a ``--`` ends the options (``verify``'s program follows)."""
    from planner.cli import build_parser

    commands = _subcommands(build_parser())
    wrong = []
    for page in _every_page():
        for line in _planner_lines(page.read_text(encoding="utf-8")):
            words = line.replace("\\|", "|").split()
            if not words or words[0] == "import" or not re.fullmatch(r"[a-z-]+", words[0]):
                continue  # ``from planner import``, output lines (``planner study: ...``)
            if words[0] not in commands:
                wrong.append(f"{page.name}: no command 'planner {words[0]}'")
                continue
            parser, rest = commands[words[0]], words[1:]
            subs = _subcommands(parser)
            if subs and rest and rest[0] in EXAMPLE_KINDS:
                continue
            if subs and rest and re.fullmatch(r"[a-z-]+", rest[0]):
                if rest[0] not in subs:
                    wrong.append(f"{page.name}: no command 'planner {words[0]} {rest[0]}'")
                    continue
                parser, rest = subs[rest[0]], rest[1:]
            known = set(parser._option_string_actions)
            if words[0] == "generate" or getattr(parser, "family_params", False):
                at = rest.index("--family") + 1 if "--family" in rest else None
                family = rest[at] if at is not None and at < len(rest) else None
                known |= _family_options(rest[0] if words[0] == "generate" and rest else family)
            for word in rest:
                if word == "--":
                    break
                for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", word):
                    if option not in known:
                        wrong.append(f"{page.name}: planner {' '.join(words[:2])}: {option}")
    assert wrong == []


def test_readme_and_api_list_every_example() -> None:
    """README.md and docs/api.md name every script and folder of examples/."""
    entries = [p.name + ("/" if p.is_dir() else "") for p in sorted((ROOT / "examples").iterdir())
               if not p.name.startswith((".", "_"))]  # fmt: skip
    assert len(entries) >= 6
    for page in (ROOT / "README.md", DOCS / "api.md"):
        text = page.read_text(encoding="utf-8")
        missing = [e for e in entries if f"`{e}`" not in text]
        assert missing == [], page.name


_COUNT = """
import sys, pytest
class Count:
    def pytest_collection_finish(self, session):
        slow = sum(1 for item in session.items if item.get_closest_marker("slow"))
        print(f"COUNTED {len(session.items)} {slow}", file=sys.stderr)
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
                     plugins=[Count()]))
"""


@pytest.mark.slow
def test_readme_suite_size_is_the_collected_count() -> None:
    """The README's "about N tests" and "about M `slow` tests" are within 10% of what
    pytest collects today (a fresh ``--collect-only`` of tests/, in a child process)."""
    import subprocess
    import sys

    from tests.waiting import HANG_GUARD_S

    done = subprocess.run([sys.executable, "-c", _COUNT], cwd=ROOT, capture_output=True,
                          text=True, timeout=HANG_GUARD_S, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    total, slow = map(int, re.findall(r"^COUNTED (\d+) (\d+)$", done.stderr, flags=re.M)[-1])
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    stated = [int(n.replace(",", "")) for n in re.findall(r"about ([\d,]+) tests\b", readme)]
    stated_slow = [int(n) for n in re.findall(r"about (\d+) `slow` tests", readme)]
    assert stated and stated_slow
    for n in stated:
        assert abs(n - total) <= 0.1 * total, (n, total)
    for n in stated_slow:
        assert abs(n - slow) <= 0.1 * slow, (n, slow)


def test_algorithm_table_is_the_registry() -> None:
    """docs/algorithms.md's table lists every registered algorithm, in the registry's order,
    with its aliases, criterion and exactness as ``planner.ALGORITHMS`` has them."""
    from planner import ALGORITHMS

    text = (DOCS / "algorithms.md").read_text(encoding="utf-8")
    table = text[text.index("| name | aliases | criterion | exact |") :].split("\n\n")[0]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in table.splitlines()[2:]]
    assert [r[0].strip("`") for r in rows] == list(ALGORITHMS)
    for name, aliases, criterion, exact, *_ in rows:
        alg = ALGORITHMS[name.strip("`")]
        assert aliases.replace("`", "").split(", ") == (list(alg.aliases) or [""]), name
        assert criterion.strip("`") == (alg.criterion or "the job's own"), name
        assert exact == ("yes" if alg.exact else "no"), name


def test_policy_lists_are_the_registries() -> None:
    """docs/job-flows.md and docs/vo-flows.md describe every policy of their registries
    (``--policy NAME`` or the name in code), and name no policy that is not registered."""
    from planner.cluster.policies import POLICIES as CLUSTER
    from planner.vo.policies import POLICIES as VO

    for page, registry in (("job-flows.md", CLUSTER), ("vo-flows.md", VO)):
        text = (DOCS / page).read_text(encoding="utf-8")
        named = set(re.findall(r"--policy ([a-z]+)", text))
        assert named <= set(registry), (page, named - set(registry))
        missing = [p for p in registry if f"`{p}`" not in text and f"--policy {p}" not in text]
        assert missing == [], page


def test_verify_corpus_is_described_as_it_is() -> None:
    """docs/verify.md's default corpus (instances, jobs, the per-family table) and the
    README's "about N generated jobs" are what ``default_corpus(0)`` builds."""
    from planner.cli import build_parser
    from validation.conformance.corpus import PLAN, default_corpus

    cases = default_corpus(0)
    jobs = sum(len(c.instance.jobs) for c in cases)
    text = " ".join((DOCS / "verify.md").read_text(encoding="utf-8").split())
    assert f"{len(cases)} instances and {jobs:,} jobs" in text
    batch = next(a.default for a in _subcommands(build_parser())["verify"]._actions
                 if a.dest == "batch")  # fmt: skip
    assert f"takes {-(-len(cases) // batch)} runs instead of {len(cases)}" in text
    for family, _, count in PLAN:
        assert re.search(rf"\| `{family}` \| {count}\b", text), family
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    (stated,) = re.findall(r"on about ([\d,]+) generated jobs", readme)
    assert abs(int(stated.replace(",", "")) - jobs) <= 0.1 * jobs


def _resolves(dotted: str) -> bool:
    """True when ``dotted`` is a module of the project or an attribute of one."""
    import importlib

    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for part in parts[i:]:
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return False


IMPORT = r"^(from ([\w.]+) import (?:\([^)]*\)|[^\n]+)|import [\w., ]+)$"
"""An import statement at the start of a line (group 2: the module of a ``from``)."""


def test_documented_python_names_exist() -> None:
    """Every dotted name of the four packages written in code (``planner.deadline.
    DEFAULT_TIME_LIMIT``, ``models.solve_window(...)``) in README.md or docs/ resolves, and
    every import statement of their Python blocks runs (optional extras and the study-kind
    example of docs/studies.md aside)."""
    optional = ("dask_jobqueue", "validation.study.altcount")
    wrong = []
    for page in _every_page():
        text = page.read_text(encoding="utf-8")
        spans = re.findall(r"`((?:instances|planner|models|validation)(?:\.\w+)+)[(`]", text)
        wrong += [f"{page.name}: {s}" for s in sorted(set(spans))
                  if not s.endswith(".py") and not _resolves(s)]  # fmt: skip
        for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
            for stmt in re.finditer(IMPORT, block, flags=re.M):
                if (stmt.group(2) or "").startswith(optional):
                    continue
                try:
                    exec(stmt.group(1), {})
                except ImportError as err:
                    wrong.append(f"{page.name}: {stmt.group(1)} ({err})")
    assert wrong == []


def test_default_time_limit_is_described_as_it_is() -> None:
    """README.md and docs/exact-models.md state the default time limit the code has
    (``planner.deadline.DEFAULT_TIME_LIMIT``), and the CLI's ``--time-limit`` uses it."""
    from planner.cli.common import DEFAULT_TIME_LIMIT as CLI_DEFAULT
    from planner.deadline import DEFAULT_TIME_LIMIT

    seconds = f"{DEFAULT_TIME_LIMIT:g}"
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"Every exact solve stops after {seconds} seconds unless told otherwise" in readme
    exact = " ".join((DOCS / "exact-models.md").read_text(encoding="utf-8").split())
    assert f"{seconds} seconds by default" in exact
    assert f"(default {seconds} s) covers the whole solve" in exact
    assert CLI_DEFAULT == DEFAULT_TIME_LIMIT


def test_readme_names_every_extra() -> None:
    """The README's list of extras is pyproject.toml's ``[project.optional-dependencies]``."""
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    listed = readme[readme.index("Extras:") :].split(". ")[0]
    assert sorted(re.findall(r"`(\w+)`", listed)) == sorted(project["optional-dependencies"])


def test_time_budget_table_is_the_budget() -> None:
    """docs/exact-models.md's table of the ``cg`` solver's shares is
    ``models.joint.cg.budget.BUDGET``, stage by stage in order, and its seconds are the
    shares of the default limit."""
    from dataclasses import fields

    from models.joint.cg.budget import BUDGET
    from planner.deadline import DEFAULT_TIME_LIMIT as L

    text = (DOCS / "exact-models.md").read_text(encoding="utf-8")
    table = text[text.index("| stage | share | on a") :].split("\n\n")[0].splitlines()[2:]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in table]
    stages = [getattr(BUDGET, f.name) for f in fields(BUDGET) if f.name != "close_least"]
    assert len(rows) == len(stages) + 1 and rows[-1][1] == "what is left"
    for (_, share, seconds), s in zip(rows, stages, strict=False):
        words = [f"by {s.by:.2f}"] * (s.by < 1) + [f"most {s.most:.2f}"] * (s.most < 1)
        assert share == ", ".join(words + [f"least {s.least:.2f}"] * (s.least > 0))
        if s.by < 1:
            assert seconds.startswith(f"until {s.by * L:g} s"), seconds
        if s.least > 0:
            assert f"{s.least * L:g}" in seconds, seconds
        if s.most < 1:
            assert f"{s.most * L:g} s" in seconds, seconds
    assert f"`close_least` ({BUDGET.close_least:.0%}".replace("%", " %") in text


def test_documented_scripts_and_their_options_exist() -> None:
    """Every ``python benchmarks/X.py`` or ``python examples/X.py`` command in README.md or
    docs/ names an existing script, and each ``--option`` written after it is one the
    script defines."""
    wrong = []
    for page in _every_page():
        text = page.read_text(encoding="utf-8")
        spans = [ln for b in re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S)
                 for ln in b.replace("\\\n", " ").splitlines()]  # fmt: skip
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        spans += [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", prose)]
        for span in spans:
            for m in re.finditer(r"python3? ((?:benchmarks|examples)/[\w/]+\.py)([^;&|>#]*)",
                                 span):  # fmt: skip
                script = ROOT / m.group(1)
                if not script.is_file():
                    wrong.append(f"{page.name}: no {m.group(1)}")
                    continue
                source = script.read_text(encoding="utf-8")
                wrong += [f"{page.name}: {m.group(1)} {o}"
                          for o in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", m.group(2))
                          if f'"{o}"' not in source]  # fmt: skip
    assert wrong == []


def test_alp_cap_arithmetic_is_the_family_defaults() -> None:
    """docs/studies.md's reason why ALP finds nothing on ``toporkov2012`` (its cap below the
    cheapest possible price) is computed from the family's defaults as they are."""
    from instances import FAMILIES

    d = FAMILIES["toporkov2012"].defaults
    cap = d["budget"] / (d["volume"] * d["job_nodes"])
    cheapest = d["unit_price"] * d["performance_min"] * (1 - 3 * d["price_deviation"])
    text = " ".join((DOCS / "studies.md").read_text(encoding="utf-8").split())
    assert (f"C = S / (V · n) = {d['budget']} / ({d['volume']:g} · {d['job_nodes']}) = "
            f"{cap:g} per quantum") in text  # fmt: skip
    assert f"deviation {d['price_deviation']:g} clipped to ±{3 * d['price_deviation']:.0%}" in text
    assert (f"{d['unit_price']:g} · {d['performance_min']:g} · "
            f"{1 - 3 * d['price_deviation']:.2f} = {cheapest:.2f}") in text
    assert cap < round(cheapest, 2)


def test_command_table_alternatives_are_the_registries() -> None:
    """The alternatives docs/formats.md's command table writes as ``a|b|c`` are the names
    the commands take: list sections, exact, combination and joint solvers, problems."""
    from models import COMBINATION_SOLVERS, JOINT_SOLVERS, PROBLEMS, SOLVERS
    from planner.cli import list as list_cmd

    text = (DOCS / "formats.md").read_text(encoding="utf-8").replace("\\|", "|")
    rows = re.findall(r"^\| `planner ([\w-]+ [^`]*)` \|", text, flags=re.M)
    wanted = {
        r"^list \[([\w|-]+)\]": list(list_cmd.SECTIONS),
        r"^exact .*--solver ([\w|-]+)": list(SOLVERS),
        r"^combine .*--problem ([\w|]+)": [str(p) for p in PROBLEMS],
        r"^combine FILE --problem .*\[--solver ([\w|]+)\] \[--joint": list(COMBINATION_SOLVERS),
        r"^combine .*--joint[^-]*(?:--objective NAME )?\[--solver ([\w|]+)\]": list(JOINT_SOLVERS),
    }
    for pattern, names in wanted.items():
        found = [m.group(1) for r in rows if (m := re.search(pattern, r))]
        assert found, pattern
        for alternatives in found:
            assert sorted(alternatives.split("|")) == sorted(names), (pattern, alternatives)


def test_workload_parameter_tables_are_the_defaults() -> None:
    """docs/workloads.md's parameter table of each workload family has a row for every
    parameter, with the registry's default."""
    from instances import WORKLOAD_FAMILIES

    text = (DOCS / "workloads.md").read_text(encoding="utf-8")
    for name, family in WORKLOAD_FAMILIES.items():
        section = text[text.index(f"### `{name}`") :]
        table = section[section.index("| parameter | default |") :].split("\n\n")[0]
        shown = {}
        for line in table.splitlines()[2:]:
            names, defaults = (c.strip() for c in line.strip("|").split("|")[:2])
            keys = [k.strip("` ") for k in names.split(",")]
            values = [v.strip("` ") for v in defaults.split(",")] if len(keys) > 1 else [
                defaults.strip("`")]  # fmt: skip
            shown.update(zip(keys, values, strict=True))
        assert sorted(shown) == sorted(family.defaults), name
        for key, value in family.defaults.items():
            assert shown[key] == ('""' if value == "" else str(value)), (name, key)
