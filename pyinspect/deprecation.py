"""Old notebook names kept for one release: each warns (DeprecationWarning) and says
what to use instead, then does what the new name does."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["renamed_keywords", "warn_renamed"]

F = TypeVar("F", bound=Callable[..., Any])


def warn_renamed(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated and goes away in the next release; use {new}",
                  DeprecationWarning, stacklevel=3)


def renamed_keywords(**renames: str) -> Callable[[F], F]:
    """Accept a keyword argument's old name (``frame=`` for ``frame_index=``), with a warning."""
    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    warnings.warn(f"{fn.__name__}({old}=...) is deprecated; use {new}=...",
                                  DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)
        return call  # type: ignore[return-value]
    return decorate
