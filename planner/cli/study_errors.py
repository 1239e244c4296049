"""How every ``planner study`` command ends on a study's error: one line, the same for all."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from planner.cli.common import UsageError


def study_errors(fn: Callable[..., int]) -> Callable[..., int]:
    """End a study command the same way for every kind: bad input (StudyError) is one usage
    line, exit 2; a failed study (StudyFailure: a dead worker pool, a broken distributed
    worker, no worker left) is one line, exit 1, its finished units kept."""

    @functools.wraps(fn)
    def wrapped(*args: Any) -> int:
        from validation.study.engine.errors import StudyError, StudyFailure

        try:
            return int(fn(*args) or 0)
        except StudyError as err:
            raise UsageError(f"planner study: {str(err).splitlines()[0]}") from None
        except StudyFailure as err:
            print(f"planner study: {str(err).splitlines()[0]}", file=sys.stderr)
            return 1

    return wrapped
