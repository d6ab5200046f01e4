"""The heap reads' limits, defined once: checked where a heap read is asked for
(HeapReader for its callers, pyinspect.session.memory_reads for a struct value that never
reaches the heap), each with the code an agent learns from."""

from __future__ import annotations

from pyinspect.errors import DepthExceededError, InvalidParameterError

__all__ = ["MAX_DEPTH", "MAX_PREVIEW_ITEMS", "check_depth", "check_preview", "check_timeout"]

MAX_DEPTH = 10
MAX_PREVIEW_ITEMS = 50


def check_depth(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise DepthExceededError(f"depth {depth} exceeds the limit of {MAX_DEPTH}", depth=depth)
    if depth < 1:
        raise InvalidParameterError(f"depth must be 1-{MAX_DEPTH}, got {depth}", depth=depth)


def check_preview(max_preview_items: int) -> None:
    if not 1 <= max_preview_items <= MAX_PREVIEW_ITEMS:
        raise InvalidParameterError(f"max_preview_items must be 1-{MAX_PREVIEW_ITEMS}, got {max_preview_items}",
                                    max_preview_items=max_preview_items)


def check_timeout(timeout_ms: int) -> None:
    if timeout_ms < 1:
        raise InvalidParameterError(f"timeout_ms must be positive, got {timeout_ms}", timeout_ms=timeout_ms)
