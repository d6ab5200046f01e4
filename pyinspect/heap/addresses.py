"""Object addresses as users give them (an int, ``0x...`` or decimal text), checked once.

Its own module so that reading one object, or a one-shot command, does not load the heap
graph's modules (pydantic models of paths and snapshots) just to parse an address."""

from __future__ import annotations

from pyinspect.errors import InvalidParameterError

__all__ = ["parse_address"]


def parse_address(address: int | str) -> int:
    """An object address given as an int or a `0x...`/decimal string, checked."""
    try:
        value = int(address, 0) if isinstance(address, str) else int(address)
    except ValueError as exc:
        raise InvalidParameterError(f"not an address: {address!r}") from exc
    if not 0 < value < 1 << 64:
        raise InvalidParameterError(f"address out of range: {address!r}")
    return value
