"""No import cycle in the four packages, function-level imports included.

The graph is built from the source (``ast``), not from what an import happens to
execute: a node per module of ``planner``, ``models``, ``instances`` and
``validation``; an edge for every import statement anywhere in a module (at the top,
in a function, in a class), and for ``importlib.import_module("constant")``. The body
of ``if TYPE_CHECKING:`` is left out (it never runs). ``from P import name`` is an
edge to the module ``P.name`` when there is one, else to ``P``; ``import P.Q`` is an
edge to ``P.Q``. The package ``__init__`` files Python runs on the way to a submodule
are not edges of their own (every package's ``__init__`` would otherwise close a
cycle with each child it re-exports); importing a package's name is an edge to its
``__init__``. A C source ``P/name.c`` is the compiled module ``P.name`` (the optional
speedups): a node that imports nothing of the packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("planner", "models", "instances", "validation")


def modules(root: Path, packages: Sequence[str]) -> dict[str, tuple[Path, bool]]:
    """Return every module under ``root``'s ``packages``: dotted name → (file, is a package)."""
    found = {}
    for pkg in packages:
        for path in sorted([*(root / pkg).rglob("*.py"), *(root / pkg).rglob("*.c")]):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")  # fmt: skip


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Yield every node of ``tree`` except the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _type_checking(child):
            for other in child.orelse:
                yield other
                yield from _nodes(other)
            continue
        yield child
        yield from _nodes(child)


def _imported(node: ast.AST, package: str, known: dict[str, tuple[Path, bool]]) -> list[str]:
    """Return the dotted names one node imports (before resolving them to known modules)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        return [f"{source}.{a.name}" if f"{source}.{a.name}" in known else source
                for a in node.names]  # fmt: skip
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
            return [node.args[0].value]
    return []


def import_graph(root: Path, packages: Sequence[str]) -> nx.DiGraph:
    """Return the import graph of ``root``'s ``packages`` (see the module docstring)."""
    known = modules(root, packages)
    graph = nx.DiGraph()
    for name, (path, is_pkg) in known.items():
        graph.add_node(name)
        if path.suffix == ".c":
            continue  # a compiled module: imports nothing of the packages
        package = name if is_pkg else name.rpartition(".")[0]
        for node in _nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for target in _imported(node, package, known):
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph.add_edge(name, target, line=getattr(node, "lineno", 0))
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """Return one cycle (module → ... → first module) per strongly connected component."""
    out = []
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            edges = nx.find_cycle(graph.subgraph(component))
            out.append([a for a, _ in edges] + [edges[0][0]])
    return sorted(out)


def test_the_four_packages_have_no_import_cycle() -> None:
    """Every module's imports (top level, in functions, ``importlib``) form no cycle."""
    graph = import_graph(ROOT, PACKAGES)
    assert set(PACKAGES) <= set(graph) and graph.number_of_edges() > 3 * len(graph)
    assert graph.has_edge("validation.study.gap.kind", "validation.study.gap.runner")  # in a def
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_study_engine_imports_no_study_kind() -> None:
    """``validation.study.engine`` reaches no kind, registry or reproduction: the kinds
    depend on the engine, never the reverse (docs/studies.md, "Adding a study kind")."""
    graph = import_graph(ROOT, PACKAGES)
    engine = [n for n in graph if n.startswith("validation.study.engine")]
    reached = set().union(*(nx.descendants(graph, n) for n in engine))
    above = sorted(n for n in reached if n.startswith("validation.study.")
                   and not n.startswith("validation.study.engine"))  # fmt: skip
    assert not above, above


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # a function-level import closes the cycle
        ({"p/__init__.py": "", "p/a.py": "import p.b\n",
          "p/b.py": "def f():\n    from p import a\n"}, [["p.a", "p.b", "p.a"]]),
        # a relative import, through a package __init__ that imports its child
        ({"p/__init__.py": "from p.a import x\n", "p/a.py": "from . import b\nx = 1\n",
          "p/b.py": "from p import x\n"}, [["p", "p.a", "p.b", "p"]]),
        # importlib with a constant name counts
        ({"p/__init__.py": "", "p/a.py": "import importlib\nimportlib.import_module('p.b')\n",
          "p/b.py": "import p.a\n"}, [["p.a", "p.b", "p.a"]]),
        # an import under TYPE_CHECKING is not an edge
        ({"p/__init__.py": "", "p/a.py": "import p.b\n",
          "p/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import p.a\n"},
         []),
        # a submodule importing its parent's name is an edge; the parent importing back is not
        # needed for a cycle unless written
        ({"p/__init__.py": "", "p/a.py": "from p import b\n", "p/b.py": "X = 1\n"}, []),
        # a compiled module (its C source) imported by name is an edge to it, not to ``p``
        ({"p/__init__.py": "from p.a import x\n", "p/a.py": "from p import _c\nx = 1\n",
          "p/_c.c": "/* C */\n"}, []),
        # without its C source the same import is an edge to ``p``: a cycle
        ({"p/__init__.py": "from p.a import x\n", "p/a.py": "from p import _c\nx = 1\n"},
         [["p", "p.a", "p"]]),
    ],
    ids=["function-level", "relative-through-init", "importlib", "type-checking", "acyclic",
         "compiled", "unknown-name"],
)
def test_the_graph_finds_the_cycles_of_small_packages(
    files: dict[str, str], expected: list[list[str]], tmp_path: Path
) -> None:
    """The checker itself on hand-made packages: it finds what is there and nothing else."""
    _package(tmp_path, files)
    assert cycles(import_graph(tmp_path, ["p"])) == expected
