"""The server's settings read from its environment (the memory its heaps may hold, when a long
call becomes a task): a value out of its range is said in the log and the default kept, so a
mistyped variable never stops the server."""

from __future__ import annotations

import logging
import os

__all__ = ["env_number"]

log = logging.getLogger(__name__)


def env_number(name: str, default: float, low: float, high: float, *, low_inclusive: bool = True) -> float:
    """$name as a number within low-high (above low only, unless low_inclusive); unset or
    blank: default; anything else: a warning, and default."""
    given = os.environ.get(name, "")
    if not given.strip():
        return default
    try:
        value = float(given)
    except ValueError:
        value = float("nan")
    if (low <= value if low_inclusive else low < value) and value <= high:
        return value
    log.warning("%s=%r is no number in %s%g-%g: it stays %g", name, given[:40], "" if low_inclusive else "above ",
                low, high, default)
    return default
