"""`with` support shared by the notebook faces that own a process or a reader."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class ClosesOnExit:
    """Leaving a `with` block closes the object, whatever ended the block."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
