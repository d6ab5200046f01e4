"""A dump is read in a child process, so a fault inside the DAC or ClrMD ends only the child.

A damaged dump can make the DAC abort (SIGABRT in DacDataTarget.GetMetadata) or fault;
in-process, that ends the MCP server, the notebook kernel or the CLI that asked. Here the
child is the heap helper run as its own .NET process (``dotnet PyInspect.Heap.dll FD``,
dotnet/PyInspect.Heap/Host/DumpReaderHost.cs): it opens the dump and runs the reader's named
calls (heap.helper_calls) sent over a socket, as JSON; the parent never loads CoreCLR for a
dump, and a one-shot command pays no second Python start. A child that dies mid-call answers
DUMP_DAMAGED naming the step; the next call starts a new child that opens the dump again
(objects of the old one, such as a graph, are gone: build them again).
"""

from __future__ import annotations

import json
import os
import signal
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pyinspect import errors
from pyinspect.errors import DumpDamagedError, ErrorCode, HeapReadError, PyInspectError
from pyinspect.heap.frames import Frames
from pyinspect.heap.helper_calls import Call, Ref
from pyinspect.heap.reader_spawn import ReaderProcess, Started, spawn_reader

__all__ = ["TIMEOUT_VARIABLE", "DumpChild", "call_timeout", "start_early"]

_STDERR_TAIL = 16000
_STEP = "pyinspect-step: "
TIMEOUT_VARIABLE = "PYINSPECT_DUMP_CALL_TIMEOUT"
_DEFAULT_TIMEOUT = 300.0


def call_timeout() -> float:
    """Seconds one call may take before the DAC is taken to loop on damaged data (a heap
    walk advances in batches and a graph's phases after it in calls of 100 ms, each far
    shorter; its roots are read within one call): $PYINSPECT_DUMP_CALL_TIMEOUT, else 300."""
    try:
        return max(1.0, float(os.environ.get(TIMEOUT_VARIABLE, _DEFAULT_TIMEOUT)))
    except ValueError:
        return _DEFAULT_TIMEOUT


class DumpChild:
    """The parent's end: runs calls in the child, one at a time, from any thread."""

    def __init__(self, path: str, options: dict[str, Any]) -> None:
        """options: dac, dac_search_path and offline, as pyinspect.targets.dac_sources reads them."""
        self._path = path
        self._open = _open_request(path, options)
        self._lock = threading.Lock()
        self._process: ReaderProcess | None = None
        self._conn: Frames | None = None
        self._stderr: IO[bytes] | None = None
        self._released: list[int] = []
        self._timeout = call_timeout()
        self.generation = 0
        with self._lock:
            self._start("open")

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        return self._process.pid if self._process is not None else None

    def run(self, call: Call, meanwhile: Callable[[], object] | None = None, **context: Any) -> Any:
        if isinstance(call.on, Ref) and call.on.id != 0 and call.on.generation != self.generation:
            raise DumpDamagedError("this object was read by a dump reader that ended on a damaged dump: "
                                   "ask again (a heap graph is built again)", **context)
        with self._lock:
            if self._conn is None:
                self._start(str(context.get("command") or call.member))
            released, self._released = self._released, []
            request = ["run", _wire(call.on), call.member, None if call.args is None else [_wire(a) for a in call.args],
                       released]
            answer = self._exchange(request, str(context.get("command") or call.member), context, meanwhile)
        return Ref(answer.id, self.generation) if isinstance(answer, Ref) else answer

    def release(self, ref: Ref) -> None:
        """Dropped with the next call (a finalizer may release while a call is under way)."""
        if ref.generation == self.generation:
            self._released.append(ref.id)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                try:
                    self._exchange(["close"], "close", {})
                except PyInspectError:
                    pass
            self._stop()

    def _start(self, step: str) -> None:
        (self._process, self._conn, self._stderr), opened = _take_early(self._open) or (_spawn(self._path), False)
        weakref.finalize(self, _end, self._process)  # a reader dropped unclosed (a notebook) ends its child
        self._released = []
        try:
            self._exchange(None if opened else self._open, "open" if step == "open" else f"open again before {step}",
                           {})
        except PyInspectError:
            self._stop()  # no DAC, not a dump: no child is left waiting
            raise

    def _exchange(self, request: list[Any] | None, step: str, context: dict[str, Any],
                  meanwhile: Callable[[], object] | None = None) -> Any:
        """Send request and read its answer; None: read the answer to the request sent as the
        child started. meanwhile runs between the two, while the child works (its answer is
        read even if meanwhile fails, so the next call reads its own)."""
        assert self._conn is not None and self._stderr is not None
        # what the child writes during this call only (its breadcrumbs): the file's offset is
        # shared with the child, which writes nothing between calls
        if request is not None:
            self._stderr.seek(0)
            self._stderr.truncate()
        try:
            if request is not None:
                self._conn.send_bytes(json.dumps(request).encode())
            try:
                if meanwhile is not None:
                    meanwhile()
            finally:
                reply = self._reply(step, context)
        except (EOFError, OSError) as exc:
            raise self._died(step, context) from exc
        return _answer(reply, context)

    def _reply(self, step: str, context: dict[str, Any]) -> bytes:
        """The child's answer to the request sent, within the call's timeout (else it is stopped)."""
        assert self._conn is not None
        if not self._conn.poll(self._timeout):
            assert self._process is not None
            self._process.kill()
            raise self._died(step, context, f"gave no answer within {self._timeout:g} s and was stopped")
        return self._conn.recv_bytes()

    def _died(self, step: str, context: dict[str, Any], how: str | None = None) -> PyInspectError:
        """The child ended mid-call: say how, during which step, and what it printed last. A
        SIGKILL we did not send is no fault of the dump (a DAC fault is SIGSEGV, SIGBUS or
        SIGABRT): most often the kernel's out-of-memory killer."""
        status = self._process.wait(timeout=30) if self._process is not None else None
        last_step, said = self._last_words()
        self._stop()
        self.generation += 1
        if how is None and status == -signal.SIGKILL:
            return HeapReadError(
                f"the dump reader process was killed (SIGKILL) during {step}, not by pyinspect and not by "
                "the dump: most often the kernel's out-of-memory killer (see dmesg; a container's or cgroup's "
                "memory limit); --memory-limit (memory_limit=) puts the heap graph's arrays on disk",
                step=step, **context)
        if how is None:
            how = f"ended with {signal.Signals(-status).name}" if status is not None and status < 0 \
                else f"ended with status {status}"
        where = f" at {context['address']}" if "address" in context else ""
        reached = f", in {last_step}" if last_step else ""
        details: dict[str, Any] = {"step": step, **context}
        if last_step:
            details["last_step"] = last_step
        return DumpDamagedError(
            f"the dump is damaged: reading it failed inside the DAC or ClrMD during {step}{reached}{where} (its "
            f"reader process {how}){': ' + said if said else ''}; the dump can be asked again or opened again",
            **details)

    def _last_words(self) -> tuple[str | None, str]:
        """The last step the helper said it reached (its breadcrumbs), and the last other lines the child wrote."""
        if self._stderr is None:
            return None, ""
        self._stderr.seek(0, 2)
        self._stderr.seek(max(0, self._stderr.tell() - _STDERR_TAIL))
        lines = [line.strip() for line in self._stderr.read().decode(errors="replace").splitlines() if line.strip()]
        steps = [line[len(_STEP):] for line in lines if line.startswith(_STEP)]
        said = [line for line in lines if not line.startswith(_STEP)]
        return (steps[-1] if steps else None), " / ".join(said[-3:])[:600]

    def _stop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
        process, self._process = self._process, None
        if process is not None:
            try:
                process.wait(10)
            except TimeoutError:
                process.kill()
                process.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None


_Spawned = tuple[ReaderProcess, Frames, IO[bytes]]


@dataclass(frozen=True)
class _Early:
    """A dump reader started before it was asked for, and the open request already sent to it."""

    spawned: _Spawned
    opening: list[Any] | None


_early: list[_Early] = []


def start_early(path: str, dac: str | None = None, offline: bool | None = None,
                started: Started | None = None) -> None:
    """Start a dump reader before it is asked for: a one-shot command (``pyinspect heap stats
    --dump``) starts it first thing, with the dump and the DAC options its command line
    names, so the child starts, reads the file and opens the dump with its DAC while the
    parent loads the command line. The next DumpChild takes it when it opens the same dump
    with the same DAC sources (else it ends it and starts its own). started: that reader when
    the caller spawned it already (pyinspect.heap.reader_spawn, before this module loaded)."""
    if _early:
        if started is not None:
            _end(started[0])
            started[1].close()
            started[2].close()
        return
    spawned = _spawn(path, started)
    try:
        opening: list[Any] | None = _open_request(path, {"dac": dac, "offline": offline})
        spawned[1].send_bytes(json.dumps(opening).encode())
    except (PyInspectError, OSError):
        opening = None  # the DumpChild's own open says why
    _early.append(_Early(spawned, opening))


def _end(process: ReaderProcess) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def _take_early(opening: list[Any]) -> tuple[_Spawned, bool] | None:
    """The reader started early, and whether it was sent this very open request (its answer
    is the caller's); None when none was started or it opens another dump (it is ended)."""
    if not _early:
        return None
    early = _early.pop()
    if early.opening is None or early.opening == opening:
        return early.spawned, early.opening is not None
    process, conn, stderr = early.spawned
    conn.close()
    _end(process)
    stderr.close()
    return None


def _open_request(path: str, options: dict[str, Any]) -> list[Any]:
    """The child's open request: the dump and its DAC sources (pyinspect.targets.dac_sources)."""
    from pyinspect.targets.dac_sources import dac_sources_json, is_offline

    sources = dac_sources_json(Path(path), dac=options.get("dac"), search_path=options.get("dac_search_path"),
                               offline=is_offline(options.get("offline")))
    return ["open", path, sources]


def _spawn(path: str, started: Started | None = None) -> _Spawned:
    """A reader process for the dump at path (pyinspect.heap.reader_spawn), or the one started,
    its socket wrapped for calls."""
    process, parent, stderr = started or spawn_reader(path)
    return process, Frames(parent), stderr


def _error_of(code: str) -> type[PyInspectError]:
    """The exception class of a code the child answered (any other failure: HEAP_READ_ERROR)."""
    for name in errors.__all__:
        kind = getattr(errors, name)
        if isinstance(kind, type) and issubclass(kind, PyInspectError) and kind.code == code \
                and kind.__name__ not in ("TargetError", "HeapError"):
            return kind
    return HeapReadError if code != ErrorCode.INVALID_PARAMETER else errors.InvalidParameterError


def _wire(value: Any) -> Any:
    """A call's object or argument as the child reads it: a Ref as {"ref": id}."""
    return {"ref": value.id} if isinstance(value, Ref) else value


def _answer(reply: bytes, context: dict[str, Any]) -> Any:
    """The child's answer: a string (b"s" and its UTF-8), else JSON holding a value, an
    object's Ref, or an error raised here as the child's code says."""
    if reply[:1] == b"s":
        return reply[1:].decode()
    answer = json.loads(reply[1:])
    if "ref" in answer:
        return Ref(int(answer["ref"]))
    if "error" in answer:
        error = answer["error"]
        raise _error_of(error["code"])(error["message"], **{**error["context"], **context})
    return answer["value"]
