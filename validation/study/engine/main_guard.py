"""Refuse to start worker processes from a script without ``if __name__ == "__main__":``.

Both the local process pool (:mod:`validation.study.engine.executors`) and a Dask
LocalCluster (:mod:`validation.study.engine.dask`) spawn workers that re-import the
main script.
"""

from __future__ import annotations

import sys

from validation.study.engine.errors import StudyError


def check_main_guard() -> None:
    """Refuse to start worker processes from a script that lacks ``if __name__ == "__main__":``.

    Spawned workers re-import the main script; unguarded study code would run again in
    every worker, which then dies while starting its own workers (Python's bootstrapping
    RuntimeError). Detected from the call stack before any worker starts.

    Raises
    ------
    StudyError
        The study is being started from the main script's top level, outside the guard.
    """
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    spec = getattr(main, "__spec__", None)
    if main is None or path is None:
        return  # interactive or -c: nothing is re-imported
    if spec is not None and (spec.name == "__main__" or spec.name.endswith(".__main__")):
        return  # a package's __main__ (python -m pkg) is not re-run by spawn
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>":
            if not _inside_guard(path, frame.f_lineno):
                raise StudyError(
                    f"{path}: a study with worker processes must be started under "
                    "'if __name__ == \"__main__\":' (each worker re-imports the script); "
                    "add the guard, or use one worker"
                )
            return
        frame = frame.f_back  # type: ignore[assignment]


def _inside_guard(path: str, line: int) -> bool:
    """Return True if ``line`` of ``path`` lies in a top-level ``if __name__ == "__main__":``."""
    import ast

    try:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return True  # cannot tell: do not refuse
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test) and \
                "__name__" in ast.unparse(node.test):  # fmt: skip
            end = node.body[-1].end_lineno or node.body[-1].lineno
            if node.body[0].lineno <= line <= end:
                return True
    return False
