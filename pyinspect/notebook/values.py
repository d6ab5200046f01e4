"""Small values the notebook hands back: an evaluation's result with its type, and
Python values written as C# literals."""

from __future__ import annotations

import json
import math
from typing import Any, Self

from pyinspect.errors import InvalidParameterError

__all__ = ["EvalResult", "csharp_literal"]


class EvalResult(str):
    """An expression's value as the debugger shows it (the str itself, so it compares
    and prints as its text) with its .NET type and whether it has children to expand.

    >>> r = dbg.eval("order.Total")
    >>> r, r.type, r.has_children
    ('12.5', 'decimal', False)
    """

    type: str
    has_children: bool

    def __new__(cls, text: str, type_name: str, has_children: bool = False) -> Self:
        made = super().__new__(cls, text)
        made.type, made.has_children = type_name, has_children
        return made

    @property
    def text(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"EvalResult({self.text!r}, type={self.type!r})"

    def __reduce__(self) -> tuple[Any, tuple[str, str, bool]]:
        """Copies and pickles keep the type (str's own would drop it)."""
        return EvalResult, (self.text, self.type, self.has_children)


def csharp_literal(value: str | float | bool | None) -> str:
    """A Python value as the C# literal setExpression takes: None -> null, True -> true,
    a str quoted with C#'s escapes (JSON's are the same), numbers as written.

    Raises InvalidParameterError for NaN and infinities, which have no C# literal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)  # its escapes (\\, \", \n, \uXXXX) are C#'s too
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidParameterError(f"{value} has no C# literal")
    return repr(value)
