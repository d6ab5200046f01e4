"""HeapReader: a live process or a core dump read through the ClrMD helper.

One helper target per reader, kept alive until ``close()``. The reader names its calls
(heap.helper_calls): a live process's run in this process on one worker thread
(heap.in_process; ClrMD is called from one thread only), a dump's in a child process
(heap.dump_child), so a damaged dump that faults the DAC ends the child, not the caller.
Calls are coarse: one crossing into .NET per result, answers parsed into frozen models.
The models load with the first call that answers one, while that call runs (``meanwhile``):
a one-shot command's request goes out before them, and a dump's reader works while they load.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, Self

from pyinspect.errors import DumpError, ProcessNotFoundError, SetupMissingError
from pyinspect.heap.addresses import parse_address
from pyinspect.heap.dump_file import check_dump_file
from pyinspect.heap.helper_calls import TARGET, Call, Ref
from pyinspect.heap.limits import check_depth, check_preview, check_timeout
from pyinspect.heap.skipped_steps import leaving_out
from pyinspect.heap.stepping import ProgressCallback, advance_walk, build_graph
from pyinspect.targets.dac_sources import is_offline

if TYPE_CHECKING:
    from pyinspect.heap.graph import HeapGraph
    from pyinspect.models.completeness import Completeness
    from pyinspect.models.heap import HeapField, HeapObject, TypeStat
    from pyinspect.models.memory import CollectionAnalysis, ObjectSummary
    from pyinspect.models.triage import (
        AsyncChains,
        Exceptions,
        Locks,
        ThreadInfo,
        ThreadPoolInfo,
        Threads,
    )
    from pyinspect.targets.process_view import ProcessView

__all__ = ["HeapReader", "ProgressCallback", "Stats", "create_dump"]


class CallRunner(Protocol):
    """Where a reader's named calls run: this process (a live target) or a child (a dump)."""

    generation: int

    def run(self, call: Call, meanwhile: Callable[[], object] | None = None, **context: Any) -> Any:
        """The call's answer; meanwhile (if given) runs once the call is under way, before its answer is read."""

    def release(self, ref: Ref) -> None: ...

    def close(self) -> None: ...


class Stats(list["TypeStat"]):  # TypeStat loads with the answer (see _loading)
    """Per type statistics of one heap walk (a list, largest total first), and whether the
    walk read the whole heap (``completeness``)."""

    def __init__(self, rows: list[TypeStat], completeness: Completeness) -> None:
        super().__init__(rows)
        self.completeness = completeness


class HeapReader:
    """Reads one target's heap. Build with :meth:`attach` or :meth:`open_dump`."""

    def __init__(self, runner: CallRunner, description: str, **context: Any) -> None:
        self._runner: CallRunner | None = runner
        self._context = context
        self.description = description

    @classmethod
    def attach(cls, pid: int, *, suspend: bool = False) -> HeapReader:
        """Attach to a live .NET process; suspend=True freezes it until close().
        The DAC is the one beside the target's own libcoreclr.so, never pyinspect's."""
        from pyinspect.heap.in_process import InProcess
        from pyinspect.targets.runtimes import runtime_of

        if not _pid_exists(pid):
            raise ProcessNotFoundError(f"no process with pid {pid}", pid=pid)
        runtime = runtime_of(pid)
        if runtime.dac_path is None:
            raise SetupMissingError(f"the runtime of process {pid} has no DAC: {runtime.folder}/libmscordaccore.so "
                                    f"is missing (runtime {runtime.version}, build {runtime.build})", pid=pid)
        return cls(InProcess(pid, suspend, runtime.dac_path), f"process {pid}", pid=pid)

    @classmethod
    def open_dump(cls, path: str | Path, *, dac: str | Path | None = None,
                  dac_search_path: str | None = None, offline: bool | None = None) -> HeapReader:
        """Open a core dump written by createdump (see :func:`create_dump`) with the DAC of
        its runtime build: ``dac`` alone when given (refused if it does not match), else the
        first that matches in the places pyinspect/targets/dac_sources.py lists (``offline``,
        default $PYINSPECT_OFFLINE, asks no server). No match raises DumpError naming the
        build and every place tried; a file shorter than its ELF headers claim raises
        DumpError ("cut at N of M bytes") before any of that. The dump is read in a child
        process (heap.dump_child): a fault there answers DumpDamagedError."""
        from pyinspect.heap.dump_child import DumpChild

        dump = Path(path)
        check_dump_file(dump)
        # offline is settled here: `pyinspect --offline` sets its variable after the child started
        options = {"dac": dac, "dac_search_path": dac_search_path, "offline": is_offline(offline)}
        return cls(DumpChild(str(dump), options), f"dump {dump}", path=str(dump))

    def dac_lookup(self) -> list[dict[str, Any]]:
        """Where a dump's DAC was looked for: [{place, path, outcome, seconds}], the used one last."""
        return list(json.loads(self.get(TARGET, "DacLookupJson")))

    @property
    def reader_pid(self) -> int | None:
        """The dump reader's child process (heap.dump_child), None for a live process read here."""
        return getattr(self._live_runner(), "pid", None)

    @property
    def generation(self) -> int:
        """Counts the dump reader's restarts after a damaged dump ended it (objects read
        before, such as a graph, are gone); always 0 for a live process."""
        return self._live_runner().generation

    def call(self, on: Ref | str, member: str, *args: Any, meanwhile: Callable[[], object] | None = None,
             **context: Any) -> Any:
        """One helper call, named: ``member`` of ``on`` (a Ref, or a helper type for a static
        method) with ``args``; a .NET object answered stays in the helper as a Ref. meanwhile
        runs while the call does (an answer's models loading: :func:`_loading`)."""
        return self._live_runner().run(Call(on, member, args), meanwhile, **{**self._context, **context})

    def get(self, on: Ref, member: str) -> Any:
        """A helper object's property."""
        return self._live_runner().run(Call(on, member, None), **self._context)

    def release(self, ref: Ref) -> None:
        """Let the helper drop an object (a finished walk, a graph no longer used)."""
        if self._runner is not None:
            self._runner.release(ref)

    def _live_runner(self) -> CallRunner:
        if self._runner is None:
            raise DumpError(f"{self.description} was closed", **self._context)
        return self._runner

    @property
    def pointer_size(self) -> int:
        return int(self.get(TARGET, "PointerSize"))

    def flush(self) -> None:
        """Forget cached memory: call whenever the target ran since the last read."""
        self.call(TARGET, "Flush")

    def stats(self, progress: ProgressCallback | None = None) -> Stats:
        """Count and total size per type over every object, largest total first; says
        where the walk had to stop (a damaged segment) in ``completeness``."""
        walk = self.call(TARGET, "StartStatsWalk", command="stats")
        try:
            total = advance_walk(self, walk, progress, "stats")
            if progress is not None:
                progress(total, total)
            rows = json.loads(self.call(walk, "ResultJson", command="stats", meanwhile=_loading(_HEAP, _COMPLETENESS)))
            completeness_json = self.call(walk, "CompletenessJson", command="stats")
        finally:
            self.release(walk)
        from pyinspect.models.completeness import Completeness
        from pyinspect.models.heap import TypeStat

        return Stats([TypeStat.model_validate(row) for row in rows], Completeness.model_validate_json(completeness_json))

    def graph(self, progress: ProgressCallback | None = None, work_folder: str | None = None,
              memory_limit: int = 0) -> HeapGraph:
        """A heap graph snapshot: one walk, then roots, dominators and retained sizes. Its arrays
        go to files in work_folder (default: the temp folder) when they would not fit in
        memory_limit bytes (0: the machine's available memory, or its cgroup's if less);
        summary().work_folder says so. progress hears the walk and then each phase after it,
        and may stop the build anywhere by raising BuildCancelled (heap.stepping)."""
        from pyinspect.heap.graph import HeapGraph

        def build(skip: str) -> tuple[Ref, int]:
            builder = self.call(TARGET, "StartGraph", skip, work_folder, memory_limit, command="graph")
            try:
                return build_graph(self, builder, progress)
            finally:
                self.release(builder)

        graph, total = leaving_out(build)
        built = HeapGraph(graph, self, self.description)  # released with it, even if progress stops here
        if progress is not None:
            progress(total, total)
        return built

    def object(self, address: int | str, depth: int = 1, max_elements: int = 100) -> HeapObject:
        """One object: fields with offsets from its address, references expanded to depth."""
        where = parse_address(address)
        check_depth(depth)
        text = self.call(TARGET, "DescribeObject", where, depth, max_elements, address=hex(where), command="object",
                         meanwhile=_loading(_HEAP))
        from pyinspect.models.heap import HeapObject

        return HeapObject.model_validate_json(text)

    def read_string(self, address: int | str, max_length: int = 1 << 20) -> str:
        where = parse_address(address)
        return str(self.call(TARGET, "ReadString", where, max_length, address=hex(where)))

    def array_elements(self, address: int | str, start: int = 0, count: int = 100) -> list[HeapField]:
        """Elements [start, start+count) in row-major order, offsets from the array."""
        where = parse_address(address)
        text = self.call(TARGET, "ReadArrayElements", where, start, count, address=hex(where),
                         meanwhile=_loading(_HEAP))
        from pyinspect.models.heap import HeapField

        return [HeapField.model_validate(item) for item in json.loads(text)]

    def analyze_collection(self, address: int | str, max_preview_items: int = 5,
                           timeout_ms: int = 5000) -> CollectionAnalysis:
        """collection_analyze of the collection object at address, every element read once;
        when timeout_ms runs out first, the answer says it is sampled and how many were read."""
        where = parse_address(address)
        check_preview(max_preview_items)
        check_timeout(timeout_ms)
        text = self.call(TARGET, "AnalyzeCollection", where, max_preview_items, timeout_ms,
                         address=hex(where), command="analyze_collection", meanwhile=_loading(_MEMORY))
        from pyinspect.models.memory import CollectionAnalysis

        return CollectionAnalysis.model_validate_json(text)

    def summarize_object(self, address: int | str, max_preview_items: int = 5) -> ObjectSummary:
        """object_summarize of the object at address: real field values and what looks wrong."""
        where = parse_address(address)
        check_preview(max_preview_items)
        text = self.call(TARGET, "SummarizeObject", where, max_preview_items, address=hex(where),
                         command="summarize_object", meanwhile=_loading(_MEMORY))
        from pyinspect.models.memory import ObjectSummary

        return ObjectSummary.model_validate_json(text)

    def statics(self, type_name: str) -> list[HeapField]:
        """Static fields of a loaded type (``address`` is the referenced object, if any)."""
        text = self.call(TARGET, "ReadStatics", type_name, type_name=type_name, meanwhile=_loading(_HEAP))
        from pyinspect.models.heap import HeapField

        return [HeapField.model_validate(item) for item in json.loads(text)]

    # ---- triage: threads, locks, async chains, exceptions (issue 31) ---------------------

    def threads(self, max_frames: int = 200, symbols: str | None = None) -> list[ThreadInfo]:
        """Every managed thread with its stack (file and line from PDBs beside the modules
        or in the symbols folder), per frame the objects its slots hold."""
        return list(self.threads_report(max_frames, symbols).threads)

    def threads_report(self, max_frames: int = 200, symbols: str | None = None) -> Threads:
        """:meth:`threads` with ``completeness``: the threads whose stacks could not be read."""
        text = leaving_out(lambda skip: str(self.call(TARGET, "Threads", max_frames, symbols, skip, command="threads",
                                                      meanwhile=_loading(_TRIAGE))))
        from pyinspect.models.triage import Threads

        return Threads.model_validate_json(text)

    def locks(self, symbols: str | None = None) -> Locks:
        """Monitors, System.Threading.Locks and semaphores held or waited for, and deadlocks."""
        text = self.call(TARGET, "Locks", symbols, command="locks", meanwhile=_loading(_TRIAGE))
        from pyinspect.models.triage import Locks

        return Locks.model_validate_json(text)

    def exceptions(self, limit: int = 100, symbols: str | None = None) -> Exceptions:
        """Exception objects on the heap, threads' current ones (a crash's) first."""
        text = self.call(TARGET, "Exceptions", limit, symbols, command="exceptions", meanwhile=_loading(_TRIAGE))
        from pyinspect.models.triage import Exceptions

        return Exceptions.model_validate_json(text)

    def async_chains(self, limit: int = 100, symbols: str | None = None) -> AsyncChains:
        """Async state machines as chains from the innermost await to the root, stuck first."""
        text = self.call(TARGET, "AsyncChains", limit, symbols, command="async", meanwhile=_loading(_TRIAGE))
        from pyinspect.models.triage import AsyncChains

        return AsyncChains.model_validate_json(text)

    def thread_pool(self) -> ThreadPoolInfo:
        text = self.call(TARGET, "ThreadPool", command="threadpool", meanwhile=_loading(_TRIAGE))
        from pyinspect.models.triage import ThreadPoolInfo

        return ThreadPoolInfo.model_validate_json(text)

    def close(self) -> None:
        """Release the target (a suspended process resumes; a dump's reader process ends); idempotent."""
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def create_dump(pid: int, path: str | Path, timeout: float = 120.0) -> Path:
    """Write a full-heap core dump of a live process with its own runtime's createdump.
    A process in another mount namespace (a container) is asked over its diagnostics socket
    to run its createdump inside its own namespaces; the dump is then moved out to ``path``."""
    import subprocess

    from pyinspect.targets.process_view import view_of
    from pyinspect.targets.runtimes import runtime_of

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
    import shutil
    import uuid

    from pyinspect.targets.diagnostics_ipc import request_dump

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


_HEAP, _MEMORY, _COMPLETENESS = "pyinspect.models.heap", "pyinspect.models.memory", "pyinspect.models.completeness"
_TRIAGE = "pyinspect.models.triage"


def _loading(*modules: str) -> Callable[[], object]:
    """A call's meanwhile: the modules of its answer's models load while the call runs. A
    one-shot command's request goes out without them, and its dump reader works while they
    load; the method then imports them by name as usual (loaded: nothing to do)."""
    def load() -> None:
        for module in modules:
            import_module(module)

    return load


def _pid_exists(pid: int) -> bool:
    """psutil's answer, imported only here: a dump read never needs psutil's import time."""
    import psutil

    return bool(psutil.pid_exists(pid))
