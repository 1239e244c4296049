"""Argument types shared by the study kinds' options: ranges, lists, family parameters.

An argparse type raises :class:`argparse.ArgumentTypeError`, which the command line
turns into one usage line (exit 2) naming the option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from validation.study.engine.errors import StudyError


def number(option: str, cast: type, minimum: float,
           maximum: float | None = None) -> Callable[[str], Any]:  # fmt: skip
    """Return an argparse type: ``cast(text)`` within ``[minimum, maximum]``.

    A float option with ``minimum`` 0 must be > 0 (a time limit, a mean interval).
    """

    def parse(text: str) -> Any:
        try:
            value = cast(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} must be a number, got '{text}'") from None
        if minimum == 0 and cast is float and not value > 0:
            raise argparse.ArgumentTypeError(f"{option} must be > 0, got '{text}'")
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{option} must be >= {minimum}, got '{text}'")
        if maximum is not None and not value <= maximum:
            raise argparse.ArgumentTypeError(f"{option} must be <= {maximum:,.0f}, got '{text}'")
        return value

    return parse


def sizes(option: str) -> Callable[[str], list[int]]:
    """Return an argparse type: comma-separated integers, each >= 1."""

    def parse(text: str) -> list[int]:
        try:
            values = [int(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{option} must be comma-separated integers, got '{text}'"
            ) from None
        if any(v < 1 for v in values):
            raise argparse.ArgumentTypeError(f"{option} values must be >= 1, got '{text}'")
        return values

    return parse


def param_value(name: str, text: str, default: Any) -> Any:
    """Return a family parameter's ``text`` as a JSON literal, or as the plain string.

    As ``planner generate`` reads them: a parameter whose default is a string takes
    the text itself (``--trace 2024`` is a file name, not a number).

    Raises
    ------
    StudyError
        The text is a JSON list or object.
    """
    from instances.generators.base import parse_param

    try:
        return parse_param(text, default)
    except ValueError as err:
        raise StudyError(f"parameter '{name}' {err}") from None
