"""How many rows a heap question may answer, defined once for every face: the MCP tools,
the notebook and the command line check a count here before any heap walk starts (a bad
count never costs a walk) and cut their rows here, saying whether rows were left out.

A count is 1 to its bound. The bounds guard a model's context, so they hold for the MCP
tools; a person (the notebook, the command line) passes no bound and may ask for any number
of rows, or ``None`` for every row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pyinspect.errors import InvalidParameterError

__all__ = ["MAX_ADDRESSES", "MAX_PATHS", "MAX_ROWS", "MAX_SEGMENTS", "check_count", "first_rows"]

T = TypeVar("T")

MAX_ROWS = 1000
MAX_ADDRESSES = 100
MAX_SEGMENTS = 200
MAX_PATHS = 10


def check_count(name: str, value: int | None, limit: int | None = MAX_ROWS) -> int | None:
    """value when it is 1-limit (at least 1 when limit is None) or None (every row); else
    INVALID_PARAMETER naming the bound."""
    if value is None or (value >= 1 and (limit is None or value <= limit)):
        return value
    bound = "at least 1" if limit is None else f"1-{limit}"
    raise InvalidParameterError(f"{name} must be {bound}, got {value}", parameter=name)


def first_rows(rows: Sequence[T], top: int | None) -> tuple[tuple[T, ...], bool]:
    """The first top rows (every row when top is None) and whether any were left out."""
    if top is None:
        return tuple(rows), False
    return tuple(rows[:top]), len(rows) > top
