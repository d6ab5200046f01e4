"""Reading a paused debuggee through the adapter: threads, frames, variables, values.

Frame ids and variable references die at every resume, so everything read is cached
per stop (the session's epoch) and thrown away with it. Adapter failures are
translated here into the contract's codes (NOT_PAUSED, UNKNOWN_THREAD, ...).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pyinspect.dap.client import DapClient
from pyinspect.errors import (
    EvaluationError,
    EvaluationNeedsCallError,
    InvalidParameterError,
    NotPausedError,
    PyInspectError,
    RequestFailedError,
    UnknownFrameError,
    UnknownThreadError,
    VariableUnavailableError,
)
from pyinspect.models.inspection import (
    DebugThread,
    EvaluateAnswer,
    FrameArgument,
    FrameInfo,
    StackTraceAnswer,
    ThreadLocation,
    ThreadsAnswer,
    VariableInfo,
    VariablesAnswer,
)
from pyinspect.session.state import DebuggeeState
from pyinspect.session.value_text import format_number, function_name, split_path


class PausedSession(Protocol):
    """What a StopReader needs of its session (pyinspect.session.debug_session.Session is one)."""

    @property
    def debuggee(self) -> DebuggeeState: ...

    @property
    def client(self) -> DapClient: ...

    def require_session(self) -> None: ...

    def require_paused(self) -> None: ...

    def current_thread(self) -> int | None: ...

    def forget_cached_reads(self) -> None: ...

__all__ = ["PausedSession", "ResolvedValue", "StopReader", "translate_errors"]

T = TypeVar("T")
SCOPES = ("locals", "arguments", "this", "all")
_SCOPE_KIND = {"locals": "local", "arguments": "argument", "this": "this"}
MAX_FRAMES = 1000
MAX_VARIABLES = 500
MAX_VALUE_CHARS = 2000


@dataclass(frozen=True)
class ResolvedValue:
    expression: str
    type_name: str
    value: str
    address: int | None
    is_null: bool
    is_value_type: bool
    variables_reference: int


@contextmanager
def translate_errors() -> Iterator[None]:
    """The adapter's error messages, mapped onto our codes."""
    try:
        yield
    except RequestFailedError as exc:
        text = exc.message.lower()
        if "not stopped" in text or "running" in text:
            raise NotPausedError(f"the process must be paused: {exc.message}") from exc
        if "unknown thread" in text:
            raise UnknownThreadError(exc.message) from exc
        if "unknown frame" in text:
            raise UnknownFrameError(exc.message) from exc
        raise


class StopReader:
    """What one stop of the paused debuggee shows, read through the adapter and cached
    until the stop ends (the epoch moves on)."""

    def __init__(self, session: PausedSession) -> None:
        self._session = session
        self._lock = threading.Lock()
        self._cache_epoch = -1
        self._cache: dict[Any, Any] = {}

    def _cached(self, key: Any, read: Callable[[], T]) -> T:
        epoch = self._session.debuggee.epoch
        with self._lock:
            if self._cache_epoch != epoch:
                self._cache_epoch, self._cache = epoch, {}
            if key in self._cache:
                return self._cache[key]  # type: ignore[no-any-return]
        with translate_errors():
            value = read()
        with self._lock:
            if self._cache_epoch == epoch:
                self._cache[key] = value
        return value

    # ---- threads and frames --------------------------------------------------------

    def raw_threads(self) -> list[dict[str, Any]]:
        return self._cached("threads", self._session.client.threads)

    def check_thread(self, thread_id: int) -> None:
        if not any(t.get("id") == thread_id for t in self.raw_threads()):
            raise UnknownThreadError(f"no thread with id {thread_id}; see threads_list", thread_id=thread_id)

    def thread_or_current(self, thread_id: int | None) -> int:
        self._session.require_paused()
        if thread_id is None:
            current = self._session.current_thread()
            if current:
                return current
            threads = self.raw_threads()
            if not threads:
                raise UnknownThreadError("the process has no managed threads")
            return int(threads[0]["id"])
        self.check_thread(thread_id)
        return thread_id

    def stack_page(self, thread_id: int, start: int, levels: int) -> dict[str, Any]:
        client = self._session.client
        return self._cached(("stack", thread_id, start, levels),
                            lambda: client.stack_trace(thread_id, start, levels))

    def raw_frames(self, thread_id: int, start: int, levels: int) -> list[dict[str, Any]]:
        return list(self.stack_page(thread_id, start, levels).get("stackFrames") or [])

    def frame_id(self, thread_id: int, frame_index: int) -> int:
        if frame_index < 0:
            raise InvalidParameterError(f"frame_index must be 0 or more, got {frame_index}")
        frames = self.raw_frames(thread_id, 0, max(20, frame_index + 1))
        if frame_index >= len(frames):
            raise UnknownFrameError(f"thread {thread_id} has {len(frames)} frames; no frame {frame_index}",
                                    frame_index=frame_index)
        return int(frames[frame_index]["id"])

    @staticmethod
    def location_of(frame: dict[str, Any]) -> ThreadLocation:
        path = (frame.get("source") or {}).get("path")
        return ThreadLocation(function=function_name(str(frame.get("name", "?"))), file=path,
                              line=frame.get("line") if path else None)

    def threads(self) -> ThreadsAnswer:
        session = self._session
        session.require_session()
        paused, current = session.debuggee.state == "paused", session.current_thread()
        with translate_errors():
            raw = self.raw_threads() if paused else session.client.threads()
        threads = []
        for thread in raw:
            location = None
            if paused:
                try:
                    frames = self.raw_frames(int(thread["id"]), 0, 1)
                    location = self.location_of(frames[0]) if frames else None
                except PyInspectError:
                    location = None
            threads.append(DebugThread(id=int(thread["id"]), name=str(thread.get("name") or f"Thread {thread['id']}"),
                                      state="stopped" if paused else "running",
                                      is_current=paused and thread["id"] == current, location=location))
        return ThreadsAnswer(threads=threads)

    def stack_trace(self, thread_id: int | None, start_frame: int, max_frames: int) -> StackTraceAnswer:
        if start_frame < 0:
            raise InvalidParameterError(f"start_frame must be 0 or more, got {start_frame}")
        if not 1 <= max_frames <= MAX_FRAMES:
            raise InvalidParameterError(f"max_frames must be 1-{MAX_FRAMES}, got {max_frames}")
        thread = self.thread_or_current(thread_id)
        page = self.stack_page(thread, start_frame, max_frames)
        frames = [self._frame_info(start_frame + i, raw, thread)
                  for i, raw in enumerate(page.get("stackFrames") or [])]
        total = int(page.get("totalFrames") or start_frame + len(frames))
        return StackTraceAnswer(thread_id=thread, total_frames=total, frames=frames)

    def _frame_info(self, index: int, raw: dict[str, Any], thread_id: int) -> FrameInfo:
        source = raw.get("source") or {}
        path = source.get("path")
        external = not path or raw.get("presentationHint") == "subtle"
        arguments = None
        if index == 0 and not external:
            arguments = [FrameArgument(name=v["name"], type=str(v.get("type") or ""), value=str(v.get("value", "")))
                         for v, kind in self._frame_variables(thread_id, 0) if kind == "argument"]
        return FrameInfo(index=index, function=function_name(str(raw.get("name", "?"))),
                         file=None if external else path, line=None if external else raw.get("line"),
                         column=None if external else raw.get("column"), module=_module(raw),
                         arguments=arguments, is_external=True if external else None)

    # ---- variables -----------------------------------------------------------------

    def _frame_variables(self, thread_id: int, frame_index: int) -> list[tuple[dict[str, Any], str]]:
        """(variable, kind) for every variable of every scope of a frame, kind being
        this / argument / local (netcoredbg's: all locals but `this`)."""
        frame = self.frame_id(thread_id, frame_index)
        client = self._session.client

        def read() -> list[tuple[dict[str, Any], str]]:
            found = []
            for scope in client.scopes(frame):
                for variable in client.variables(int(scope["variablesReference"])):
                    kind = variable.get("pyinspectKind") or ("this" if variable.get("name") == "this" else "local")
                    found.append((variable, str(kind)))
            return found
        return self._cached(("frame-vars", thread_id, frame_index), read)

    def _children(self, reference: int, start: int | None = None, count: int | None = None) -> list[dict[str, Any]]:
        client = self._session.client
        return self._cached(("children", reference, start, count), lambda: client.variables(reference, start, count))

    def variables(self, thread_id: int | None, frame_index: int, scope: str, expand: str | None,
                  start: int = 0, count: int = 100) -> VariablesAnswer:
        """A page of the frame's variables, or of the children of `expand`."""
        if scope not in SCOPES:
            raise InvalidParameterError(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}")
        if start < 0:
            raise InvalidParameterError(f"start must be 0 or more, got {start}")
        if not 1 <= count <= MAX_VARIABLES:
            raise InvalidParameterError(f"count must be 1-{MAX_VARIABLES}, got {count}")
        thread = self.thread_or_current(thread_id)
        if expand:
            reference, total = self._reference_of(expand, thread, frame_index)
            # one more than asked: whether anything follows is then known even without a total
            children = self._children(reference, start, count + 1) if reference else []
            return _page([_variable_info(v, None, expand) for v in children], start, count, total)
        wanted = _SCOPE_KIND.get(scope)
        found = [_variable_info(v, kind, None) for v, kind in self._frame_variables(thread, frame_index)
                 if wanted is None or kind == wanted]
        return _page(found[start:start + count + 1], start, count, len(found))

    def _reference_of(self, path: str, thread_id: int, frame_index: int) -> tuple[int, int | None]:
        """Walk a dotted path through the frame's variables; evaluate it as a fallback.
        The value's variables reference and its children count (when the adapter says)."""
        segments = split_path(path)
        candidates = [v for v, _ in self._frame_variables(thread_id, frame_index)]
        found: dict[str, Any] | None = None
        for segment in segments:
            found = next((v for v in candidates if v.get("name") == segment), None)
            if found is None:
                break
            reference = int(found.get("variablesReference") or 0)
            candidates = self._children(reference) if reference else []
        if found is not None:
            return int(found.get("variablesReference") or 0), _children_count(found)
        try:
            body = self._evaluate_raw(path, thread_id, frame_index)
            return int(body.get("variablesReference") or 0), _children_count(body)
        except EvaluationError:
            raise VariableUnavailableError(f"no variable at path {path!r} in frame {frame_index}",
                                           path=path) from None

    # ---- evaluation ----------------------------------------------------------------

    def _evaluate_raw(self, expression: str, thread_id: int | None, frame_index: int,
                      allow_calls: bool = False) -> dict[str, Any]:
        if not expression.strip():
            raise InvalidParameterError("expression must not be empty")
        thread = self.thread_or_current(thread_id)
        frame = self.frame_id(thread, frame_index)
        client = self._session.client
        try:
            if not allow_calls:
                # Read-only: the adapter runs no debuggee code and assigns nothing, so the
                # answer holds until the process resumes or something writes (forget_cached_reads).
                return self._cached(("eval", expression, frame), lambda: client.evaluate(expression, frame, read_only=True))
            return self._evaluate_with_calls(expression, frame)
        except RequestFailedError as exc:
            raise _evaluation_error(exc, expression) from exc

    def _evaluate_with_calls(self, expression: str, frame: int) -> dict[str, Any]:
        """Never cached, and whatever it ran may have changed the program: every cached read
        of this stop is dropped afterwards (the session's epoch moves on)."""
        try:
            with translate_errors():
                return self._session.client.evaluate(expression, frame, context="repl")
        finally:
            self._session.forget_cached_reads()

    def evaluate(self, expression: str, thread_id: int | None, frame_index: int, fmt: str,
                 allow_calls: bool = False) -> EvaluateAnswer:
        """allow_calls=False (read-only): an expression that needs debuggee code raises
        EvaluationNeedsCallError naming the call; True runs it (func-eval) and may change the program."""
        if fmt not in ("default", "hex", "binary"):
            raise InvalidParameterError(f"format must be default, hex or binary, not {fmt!r}")
        body = self._evaluate_raw(expression, thread_id, frame_index, allow_calls)
        type_name = str(body.get("type") or "")
        return EvaluateAnswer(result=format_number(str(body.get("result", "")), type_name, fmt),
                              type=type_name, has_children=int(body.get("variablesReference") or 0) > 0)

    def set_value(self, expression: str, value: str, thread_id: int | None, frame_index: int) -> str:
        """Write a C# literal (number, "string", true, null...) into a variable, field or element."""
        thread = self.thread_or_current(thread_id)
        frame = self.frame_id(thread, frame_index)
        try:
            with translate_errors():
                body = self._session.client.set_expression(expression, value, frame)
        finally:
            self._session.forget_cached_reads()
        return str(body.get("value", ""))

    def resolve_value(self, expression: str, thread_id: int | None = None, frame_index: int = 0) -> ResolvedValue:
        try:
            body = self._evaluate_raw(expression, thread_id, frame_index)
        except EvaluationError as exc:
            raise VariableUnavailableError(f"cannot resolve {expression!r}: {exc.message}",
                                           expression=expression) from exc
        value = str(body.get("result", ""))
        reference = body.get("memoryReference")
        address = int(str(reference), 16) if reference else None
        is_null = value == "null"
        return ResolvedValue(expression=expression, type_name=str(body.get("type") or ""), value=value,
                             address=None if is_null else address, is_null=is_null,
                             is_value_type=not is_null and address is None,
                             variables_reference=int(body.get("variablesReference") or 0))


_NEEDS_CALL = "needs a call into the debuggee (func-eval): "


def _evaluation_error(exc: RequestFailedError, expression: str) -> EvaluationError:
    """The adapter's refusal to run code on the read-only path becomes EVALUATION_NEEDS_CALL."""
    if _NEEDS_CALL in exc.message:
        call = exc.message.split(_NEEDS_CALL, 1)[1].split(";", 1)[0]
        return EvaluationNeedsCallError(
            f"evaluating {expression!r} needs a call into the debuggee: {call} (func-eval, which may change "
            "the program). evaluate is read-only and runs no debuggee code; to run it, use the "
            "evaluate_with_calls tool (allow_calls=True in Python).", expression=expression, call=call)
    found = re.search(r"\b((?:System\.)?\w*Exception)\b", exc.message)
    return EvaluationError(exc.message, exception_type=found.group(1) if found else None, expression=expression)


def _module(raw: dict[str, Any]) -> str | None:
    """The module's file name: our adapter's moduleId is the module's path (its `Module.id`)."""
    module = raw.get("moduleId")
    return re.split(r"[\\/]", str(module))[-1] if module not in (None, "") else None


def _children_count(raw: dict[str, Any]) -> int | None:
    named, indexed = raw.get("namedVariables"), raw.get("indexedVariables")
    return (named or 0) + (indexed or 0) if (named is not None or indexed is not None) else None


def _page(found: list[VariableInfo], start: int, count: int, total: int | None) -> VariablesAnswer:
    """`found` holds up to count+1 items from `start`: the extra one only says more follow."""
    more = len(found) > count or (total is not None and start + min(len(found), count) < total)
    shown = found[:count]
    return VariablesAnswer(variables=shown, start=start, total=total, truncated=more,
                           next_start=start + len(shown) if more else None)


def _variable_info(raw: dict[str, Any], kind: str | None, parent: str | None) -> VariableInfo:
    reference = int(raw.get("variablesReference") or 0)
    count = _children_count(raw)
    value = str(raw.get("value", ""))
    cut = len(value) > MAX_VALUE_CHARS
    return VariableInfo(name=str(raw.get("name", "")), type=str(raw.get("type") or ""),
                        value=value[:MAX_VALUE_CHARS] + "…" if cut else value, value_truncated=True if cut else None,
                        has_children=reference > 0, children_count=count if reference > 0 else None,
                        scope=kind if kind in ("argument", "local") else None, parent=parent)  # type: ignore[arg-type]
