"""HeapReader: a live process or a core dump read through the ClrMD helper.

One helper target per reader, kept alive until ``close()``; every ClrMD call runs on the
reader's own single worker thread (ClrMD must be called from one thread only). Calls are
coarse: one crossing into .NET per result, answers parsed into frozen models.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from pyinspect.errors import DumpError, ProcessNotFoundError, SetupMissingError
from pyinspect.heap import dotnet_bridge
from pyinspect.heap.addresses import parse_address
from pyinspect.heap.limits import check_depth, check_preview, check_timeout
from pyinspect.models.heap import HeapField, HeapObject, TypeStat
from pyinspect.models.memory import CollectionAnalysis, ObjectSummary
from pyinspect.models.triage import AsyncChains, Exceptions, Locks, ThreadInfo, ThreadPoolInfo
from pyinspect.targets.dac_sources import dac_sources_json
from pyinspect.targets.diagnostics_ipc import request_dump
from pyinspect.targets.process_view import ProcessView, view_of
from pyinspect.targets.runtimes import runtime_of

if TYPE_CHECKING:
    from pyinspect.heap.graph import HeapGraph

__all__ = ["HeapReader", "ProgressCallback", "create_dump"]

T = TypeVar("T")
ProgressCallback = Callable[[int, int], None]
"""Called as (walked_bytes, total_bytes) while a heap walk advances."""

_WALK_BATCH = 250_000


class HeapReader:
    """Reads one target's heap. Build with :meth:`attach` or :meth:`open_dump`."""

    def __init__(self, open_target: Callable[[Any], Any], description: str, **context: Any) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyinspect-heap")
        self._context = context
        self.description = description
        try:
            self._target: Any = self._run(lambda: open_target(dotnet_bridge.helper()))
        except BaseException:
            self._worker.shutdown(wait=False)
            raise

    @classmethod
    def attach(cls, pid: int, *, suspend: bool = False) -> HeapReader:
        """Attach to a live .NET process; suspend=True freezes it until close().
        The DAC is the one beside the target's own libcoreclr.so, never pyinspect's."""
        if not _pid_exists(pid):
            raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid)
        runtime = runtime_of(pid)
        if runtime.dac_path is None:
            raise SetupMissingError(f"the runtime of process {pid} has no DAC: {runtime.folder}/libmscordaccore.so "
                                    f"is missing (runtime {runtime.version}, build {runtime.build})", pid=pid)
        dac = runtime.dac_path
        return cls(lambda h: h.HeapTarget.Attach(pid, suspend, dac), f"process {pid}", pid=pid)

    @classmethod
    def open_dump(cls, path: str | Path, *, dac: str | Path | None = None,
                  dac_search_path: str | None = None, offline: bool | None = None) -> HeapReader:
        """Open a core dump written by createdump (see :func:`create_dump`) with the DAC of
        its runtime build: ``dac`` alone when given (refused if it does not match), else the
        first that matches in the places pyinspect/targets/dac_sources.py lists (``offline``,
        default $PYINSPECT_OFFLINE, asks no server). No match raises DumpError naming the
        build and every place tried."""
        dump = Path(path)
        if not dump.is_file():
            raise DumpError(f"dump file not found: {dump}", path=str(dump))
        sources = dac_sources_json(dump, dac=dac, search_path=dac_search_path, offline=offline)
        return cls(lambda h: h.HeapTarget.OpenDump(str(dump), sources), f"dump {dump}", path=str(dump))

    def dac_lookup(self) -> list[dict[str, Any]]:
        """Where a dump's DAC was looked for: [{place, path, outcome, seconds}], the used one last."""
        return list(json.loads(self._run(lambda: str(self._target.DacLookupJson))))

    def _run(self, action: Callable[[], T], **context: Any) -> T:
        call_context = {**self._context, **context}
        return self._worker.submit(lambda: dotnet_bridge.call(action, **call_context)).result()

    @property
    def pointer_size(self) -> int:
        return int(self._run(lambda: self._target.PointerSize))

    def flush(self) -> None:
        """Forget cached memory: call whenever the target ran since the last read."""
        self._run(lambda: self._target.Flush())

    def stats(self, progress: ProgressCallback | None = None) -> list[TypeStat]:
        """Count and total size per type over every object, largest total first."""
        walk = self._run(lambda: self._target.StartStatsWalk())
        total = int(walk.TotalBytes)
        while not self._run(lambda: bool(walk.Step(_WALK_BATCH)), command="stats"):
            if progress is not None:
                progress(int(walk.WalkedBytes), total)
        if progress is not None:
            progress(total, total)
        rows = json.loads(self._run(lambda: str(walk.ResultJson())))
        return [TypeStat.model_validate(row) for row in rows]

    def graph(self, progress: ProgressCallback | None = None, work_folder: str | None = None,
              memory_limit: int = 0) -> HeapGraph:
        """A heap graph snapshot: one walk, then roots, dominators and retained sizes. Its arrays
        go to files in work_folder (default: the temp folder) when they would not fit in
        memory_limit bytes (0: the machine's available memory); summary().work_folder says so."""
        from pyinspect.heap.graph import HeapGraph

        builder = self._run(lambda: self._target.StartGraph(work_folder, memory_limit))
        total = int(builder.TotalBytes)
        while not self._run(lambda: bool(builder.Step(_WALK_BATCH)), command="graph"):
            if progress is not None:
                progress(int(builder.WalkedBytes), total)
        graph = self._run(lambda: builder.Finish(), command="graph")
        if progress is not None:
            progress(total, total)
        return HeapGraph(graph, self._run, self.description)

    def object(self, address: int | str, depth: int = 1, max_elements: int = 100) -> HeapObject:
        """One object: fields with offsets from its address, references expanded to depth."""
        where = parse_address(address)
        check_depth(depth)
        text = self._run(lambda: str(self._target.DescribeObject(where, depth, max_elements)),
                         address=hex(where), command="object")
        return HeapObject.model_validate_json(text)

    def read_string(self, address: int | str, max_length: int = 1 << 20) -> str:
        where = parse_address(address)
        return self._run(lambda: str(self._target.ReadString(where, max_length)), address=hex(where))

    def array_elements(self, address: int | str, start: int = 0, count: int = 100) -> list[HeapField]:
        """Elements [start, start+count) in row-major order, offsets from the array."""
        where = parse_address(address)
        text = self._run(lambda: str(self._target.ReadArrayElements(where, start, count)),
                         address=hex(where))
        return [HeapField.model_validate(item) for item in json.loads(text)]

    def analyze_collection(self, address: int | str, max_preview_items: int = 5,
                           timeout_ms: int = 5000) -> CollectionAnalysis:
        """collection_analyze of the collection object at address, every element read once;
        when timeout_ms runs out first, the answer says it is sampled and how many were read."""
        where = parse_address(address)
        check_preview(max_preview_items)
        check_timeout(timeout_ms)
        text = self._run(lambda: str(self._target.AnalyzeCollection(where, max_preview_items, timeout_ms)),
                         address=hex(where), command="analyze_collection")
        return CollectionAnalysis.model_validate_json(text)

    def summarize_object(self, address: int | str, max_preview_items: int = 5) -> ObjectSummary:
        """object_summarize of the object at address: real field values and what looks wrong."""
        where = parse_address(address)
        check_preview(max_preview_items)
        text = self._run(lambda: str(self._target.SummarizeObject(where, max_preview_items)),
                         address=hex(where), command="summarize_object")
        return ObjectSummary.model_validate_json(text)

    def statics(self, type_name: str) -> list[HeapField]:
        """Static fields of a loaded type (``address`` is the referenced object, if any)."""
        text = self._run(lambda: str(self._target.ReadStatics(type_name)), type_name=type_name)
        return [HeapField.model_validate(item) for item in json.loads(text)]

    # ---- triage: threads, locks, async chains, exceptions (issue 31) ---------------------

    def threads(self, max_frames: int = 200, symbols: str | None = None) -> list[ThreadInfo]:
        """Every managed thread with its stack (file and line from PDBs beside the modules
        or in the symbols folder), per frame the objects its slots hold."""
        text = self._run(lambda: str(self._target.Threads(max_frames, symbols)), command="threads")
        return [ThreadInfo.model_validate(item) for item in json.loads(text)]

    def locks(self, symbols: str | None = None) -> Locks:
        """Monitors, System.Threading.Locks and semaphores held or waited for, and deadlocks."""
        return Locks.model_validate_json(self._run(lambda: str(self._target.Locks(symbols)), command="locks"))

    def exceptions(self, limit: int = 100, symbols: str | None = None) -> Exceptions:
        """Exception objects on the heap, threads' current ones (a crash's) first."""
        text = self._run(lambda: str(self._target.Exceptions(limit, symbols)), command="exceptions")
        return Exceptions.model_validate_json(text)

    def async_chains(self, limit: int = 100, symbols: str | None = None) -> AsyncChains:
        """Async state machines as chains from the innermost await to the root, stuck first."""
        text = self._run(lambda: str(self._target.AsyncChains(limit, symbols)), command="async")
        return AsyncChains.model_validate_json(text)

    def thread_pool(self) -> ThreadPoolInfo:
        return ThreadPoolInfo.model_validate_json(self._run(lambda: str(self._target.ThreadPool())))

    def close(self) -> None:
        """Release the target (a suspended process resumes); idempotent."""
        target, self._target = self._target, None
        if target is not None:
            self._run(lambda: target.Dispose())
        self._worker.shutdown(wait=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def create_dump(pid: int, path: str | Path, timeout: float = 120.0) -> Path:
    """Write a full-heap core dump of a live process with its own runtime's createdump.
    A process in another mount namespace (a container) is asked over its diagnostics socket
    to run its createdump inside its own namespaces; the dump is then moved out to ``path``."""
    if not _pid_exists(pid):
        raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid)
    out = Path(path).resolve()
    view = view_of(pid)
    runtime = runtime_of(pid)
    if runtime.createdump_path is None:
        raise DumpError(f"the runtime of process {pid} has no createdump in {runtime.target_folder}", pid=pid)
    if view.other_mount_namespace:
        return _dump_through_the_runtime(view, out, timeout)
    tool = runtime.createdump_path
    try:
        result = subprocess.run([tool, "--full", "-f", str(out), str(pid)],
                                capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DumpError(f"createdump failed: {exc}", pid=pid, path=str(out)) from exc
    if result.returncode != 0 or not out.is_file():
        detail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise DumpError(f"createdump failed: {detail[0]}", pid=pid, path=str(out))
    return out


def _dump_through_the_runtime(view: ProcessView, out: Path, timeout: float) -> Path:
    """The runtime writes the dump into its own temp folder; pyinspect moves it out."""
    if not out.parent.is_dir():
        raise DumpError(f"the folder of {out} does not exist", pid=view.pid, path=str(out))
    inside = f"{view.temp_folder}/pyinspect-{os.getpid()}-{uuid.uuid4().hex[:12]}.dmp"
    written = Path(view.reach(inside))
    try:
        request_dump(view, inside, timeout=timeout)
        if not written.is_file():
            raise DumpError(f"the runtime of process {view.pid} answered but wrote no {inside}", pid=view.pid,
                            path=str(out))
        shutil.move(str(written), str(out))
    except OSError as exc:
        raise DumpError(f"cannot move the dump out of the process's namespaces ({written} -> {out}): {exc}",
                        pid=view.pid, path=str(out)) from exc
    finally:
        written.unlink(missing_ok=True)
    return out


def _pid_exists(pid: int) -> bool:
    """psutil's answer, imported only here: a dump read never needs psutil's import time."""
    import psutil

    return bool(psutil.pid_exists(pid))
