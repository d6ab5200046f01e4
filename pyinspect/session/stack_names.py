"""The paused debug session's frames and variables (over DAP) as a StackReader, so a heap
read at this stop names its stack roots' locals (pyinspect.heap.stack_locals)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pyinspect.errors import PyInspectError
from pyinspect.heap.stack_locals import name_locals
from pyinspect.models.heapgraph import RetentionPaths

if TYPE_CHECKING:
    from pyinspect.dap.client import DapClient

__all__ = ["DapStacks", "name_at_stop"]

log = logging.getLogger(__name__)

MAX_FRAMES = 1000


class DapStacks:
    """Frames and variables read when first asked, each once per naming."""

    def __init__(self, client: DapClient) -> None:
        self._client = client
        self._threads: set[int] | None = None
        self._frames: dict[int, list[dict[str, Any]]] = {}
        self._variables: dict[tuple[int, int], list[tuple[str, int]]] = {}

    def frame_methods(self, thread: int) -> Sequence[str] | None:
        if self._threads is None:
            self._threads = {int(t["id"]) for t in self._client.threads() if "id" in t}
        if thread not in self._threads:
            return None
        page = self._client.stack_trace(thread, 0, MAX_FRAMES)
        self._frames[thread] = list(page.get("stackFrames") or [])
        return [str(frame.get("name", "")) for frame in self._frames[thread]]

    def frame_variables(self, thread: int, frame: int) -> Sequence[tuple[str, int]]:
        if (thread, frame) not in self._variables:
            held = []
            for scope in self._client.scopes(int(self._frames[thread][frame]["id"])):
                for variable in self._client.variables(int(scope["variablesReference"])):
                    reference = variable.get("memoryReference")
                    if reference:
                        held.append((str(variable.get("name", "")), int(str(reference), 16)))
            self._variables[(thread, frame)] = held
        return self._variables[(thread, frame)]


def name_at_stop(paths: RetentionPaths, client: DapClient, at_stop: Callable[[], bool]) -> RetentionPaths:
    """Stack roots named from the debugger while ``at_stop()`` (still paused where the graph
    was read); otherwise, or when the debugger cannot tell, they stay unnamed."""
    if not at_stop():
        return paths
    try:
        named = name_locals(paths, DapStacks(client))
    except PyInspectError as exc:
        log.info("stack roots left unnamed: %s", exc.message)
        return paths
    return named if at_stop() else paths
