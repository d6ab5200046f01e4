"""The launched program's output (DAP `output` events), kept for process_output.

Bounded: at most MAX_CHARS of text are kept; older chunks are dropped and counted, so a
reader with an old cursor learns how much it missed instead of silently skipping it.
Cursors count chunks since the session started (each `output` event is one chunk).
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

__all__ = ["OutputBuffer", "OutputChunk", "OutputPage"]

MAX_CHARS = 2_000_000
STREAMS = {"stdout": "stdout", "stderr": "stderr"}


@dataclass(frozen=True)
class OutputChunk:
    index: int
    stream: str
    text: str


@dataclass(frozen=True)
class OutputPage:
    chunks: list[OutputChunk]
    next_cursor: int
    total: int
    dropped: int
    truncated: bool


class OutputBuffer:
    """Thread-safe: the DAP reader appends, tools read."""

    def __init__(self, max_chars: int = MAX_CHARS) -> None:
        self._lock = threading.Lock()
        self._max_chars = max_chars
        self._chunks: deque[OutputChunk] = deque()
        self._chars = 0
        self._total = 0

    def clear(self) -> None:
        with self._lock:
            self._chunks.clear()
            self._chars = self._total = 0

    def add(self, category: str | None, text: str) -> None:
        """stdout/stderr as such; the adapter's own messages (console, log points) as console."""
        stream = STREAMS.get(category or "console", "console")
        with self._lock:
            self._chunks.append(OutputChunk(self._total, stream, text))
            self._total += 1
            self._chars += len(text)
            while self._chars > self._max_chars and len(self._chunks) > 1:
                self._chars -= len(self._chunks.popleft().text)

    def read(self, cursor: int, max_chars: int) -> OutputPage:
        """Chunks from `cursor` on, up to max_chars of text (a longer single chunk is cut
        and the page says truncated)."""
        with self._lock:
            first = self._chunks[0].index if self._chunks else self._total
            start = max(cursor, first)
            page: list[OutputChunk] = []
            used = 0
            for chunk in list(self._chunks)[start - first:]:
                if used + len(chunk.text) > max_chars:
                    if not page:
                        page.append(OutputChunk(chunk.index, chunk.stream, chunk.text[:max_chars]))
                        return OutputPage(page, chunk.index + 1, self._total, max(0, first - cursor), True)
                    break
                page.append(chunk)
                used += len(chunk.text)
            next_cursor = page[-1].index + 1 if page else start
            return OutputPage(page, next_cursor, self._total, max(0, first - cursor), next_cursor < self._total)
