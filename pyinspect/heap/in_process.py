"""A live process's reader runs its helper calls in this process, on one worker thread.

A live process is read beside the debugger that holds it (ClrMD attaches without
stopping it) and its reads are cheap to repeat, so it stays in-process; ClrMD is called
from one thread only, this runner's. A dump is read in a child instead (heap.dump_child).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pyinspect.heap.helper_calls import Call, HelperObjects, Ref

__all__ = ["InProcess"]

T = TypeVar("T")


class InProcess:
    """Runs one reader's calls against its helper objects on a single worker thread."""

    generation = 0

    def __init__(self, pid: int, suspend: bool, dac: str) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyinspect-heap")
        self._objects = HelperObjects()
        try:
            self._on_worker(lambda: self._objects.attach(pid, suspend, dac))
        except BaseException:
            self._worker.shutdown(wait=False)
            raise

    def run(self, call: Call, meanwhile: Callable[[], object] | None = None, **context: Any) -> Any:
        from pyinspect.errors import PyInspectError

        answer = self._worker.submit(self._objects.run, call)
        if meanwhile is not None:
            meanwhile()
        try:
            return answer.result()
        except PyInspectError as exc:
            exc.context = {**exc.context, **context}
            raise

    def release(self, ref: Ref) -> None:
        """Queued, not awaited: a finalizer may release from any thread, the worker's too."""
        try:
            self._worker.submit(self._objects.release, ref)
        except RuntimeError:
            pass  # closed: every object is gone already

    def close(self) -> None:
        try:
            self._on_worker(self._objects.close)
        finally:
            self._worker.shutdown(wait=True)

    def _on_worker(self, action: Callable[[], T]) -> T:
        return self._worker.submit(action).result()
