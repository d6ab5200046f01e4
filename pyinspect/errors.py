"""One exception tree for pyinspect, and the closed set of error codes.

Every failure a user can see is a ``PyInspectError`` carrying an ``ErrorCode``; the
MCP tools turn it into ``{"success": false, "error": {"code", "message"}}`` (or the
contract's own error shape), the CLI prints its message. Foreign exceptions
(pythonnet, the DAP wire, OS errors) are translated at the boundary where they occur,
with context (pid, address, command, seq) attached.

    PyInspectError
    ├── InvalidParameterError      a parameter out of range or of the wrong form
    ├── SetupMissingError          a build output or the .NET runtime is missing
    ├── TargetError                the process or dump to read
    │   ├── ProcessNotFoundError
    │   ├── NotDotNetProcessError
    │   ├── DumpError
    │   └── DumpDamagedError       reading a damaged dump ended its reader process
    ├── HeapError                  reading memory through ClrMD
    │   ├── NotAnObjectError       an address that is not a managed object
    │   ├── UnknownTypeError       a type name with no object in the heap
    │   └── HeapReadError          any other ClrMD failure
    ├── AdapterError               the DAP adapter and its protocol
    │   ├── AdapterDiedError       the adapter process ended; pending requests fail
    │   ├── AdapterTimeoutError    no answer within the bounded wait
    │   └── RequestFailedError     the adapter answered success=false
    └── SessionError               the debug session's state forbids the call
        ├── NoSessionError
        ├── NotPausedError
        ├── UnknownThreadError / UnknownFrameError / UnknownBreakpointError
        ├── VariableUnavailableError
        ├── EvaluationError
        │   └── EvaluationNeedsCallError   read-only, but the expression needs a func-eval
        ├── NotCollectionError
        ├── DepthExceededError
        ├── NoExceptionError
        ├── NoHeapError            no heap open for the heap tools
        ├── UnknownSnapshotError   a heap snapshot id never taken
        ├── TraceRunningError      trace_start while a recording runs
        └── NoTraceError           trace_stop with no recording
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = [
    "AdapterDiedError",
    "AdapterError",
    "AdapterTimeoutError",
    "DepthExceededError",
    "DumpDamagedError",
    "DumpError",
    "ErrorCode",
    "EvaluationError",
    "EvaluationNeedsCallError",
    "HandleClosedError",
    "HandleRequiredError",
    "HandleUnknownError",
    "HeapError",
    "HeapReadError",
    "InvalidParameterError",
    "NoExceptionError",
    "NoHeapError",
    "NoSessionError",
    "NoTraceError",
    "NotAnObjectError",
    "NotCollectionError",
    "NotDotNetProcessError",
    "NotPausedError",
    "ProcessNotFoundError",
    "PyInspectError",
    "RequestFailedError",
    "SessionError",
    "SetupMissingError",
    "TargetError",
    "TraceRunningError",
    "UnknownBreakpointError",
    "UnknownFrameError",
    "UnknownSnapshotError",
    "UnknownThreadError",
    "UnknownTypeError",
    "VariableUnavailableError",
]


class ErrorCode(StrEnum):
    """Every code an answer may carry, spelled this one way in every tool (the
    object_summarize/collection_analyze contracts' lower-case spellings are not used)."""

    INVALID_PARAMETER = "INVALID_PARAMETER"
    SETUP_MISSING = "SETUP_MISSING"
    PROCESS_NOT_FOUND = "PROCESS_NOT_FOUND"
    NOT_DOTNET_PROCESS = "NOT_DOTNET_PROCESS"
    DUMP_ERROR = "DUMP_ERROR"
    DUMP_DAMAGED = "DUMP_DAMAGED"
    NOT_AN_OBJECT = "NOT_AN_OBJECT"
    HEAP_READ_ERROR = "HEAP_READ_ERROR"
    ADAPTER_ERROR = "ADAPTER_ERROR"
    ADAPTER_DIED = "ADAPTER_DIED"
    TIMEOUT = "TIMEOUT"
    NO_SESSION = "NO_SESSION"
    NOT_PAUSED = "NOT_PAUSED"
    UNKNOWN_THREAD = "UNKNOWN_THREAD"
    UNKNOWN_FRAME = "UNKNOWN_FRAME"
    UNKNOWN_BREAKPOINT = "UNKNOWN_BREAKPOINT"
    INVALID_REFERENCE = "INVALID_REFERENCE"
    VARIABLE_UNAVAILABLE = "VARIABLE_UNAVAILABLE"
    EVAL_EXCEPTION = "EVAL_EXCEPTION"
    EVALUATION_NEEDS_CALL = "EVALUATION_NEEDS_CALL"
    NOT_COLLECTION = "NOT_COLLECTION"
    DEPTH_EXCEEDED = "DEPTH_EXCEEDED"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    NO_EXCEPTION = "NO_EXCEPTION"
    NO_HEAP = "NO_HEAP"
    UNKNOWN_TYPE = "UNKNOWN_TYPE"
    UNKNOWN_SNAPSHOT = "UNKNOWN_SNAPSHOT"
    TRACE_RUNNING = "TRACE_RUNNING"
    NO_TRACE = "NO_TRACE"
    HANDLE_REQUIRED = "HANDLE_REQUIRED"
    HANDLE_UNKNOWN = "HANDLE_UNKNOWN"
    HANDLE_CLOSED = "HANDLE_CLOSED"


class PyInspectError(Exception):
    """Base of every pyinspect error: a code, a message, and context for debugging."""

    code: ErrorCode = ErrorCode.INVALID_PARAMETER

    def __init__(self, message: str, *, code: ErrorCode | None = None, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.context = context

    def __str__(self) -> str:
        if not self.context:
            return self.message
        details = ", ".join(f"{k}={v!r}" for k, v in self.context.items())
        return f"{self.message} ({details})"

    def to_dict(self) -> dict[str, str]:
        return {"code": str(self.code), "message": self.message}


class InvalidParameterError(PyInspectError):
    code = ErrorCode.INVALID_PARAMETER


class SetupMissingError(PyInspectError):
    code = ErrorCode.SETUP_MISSING


class TargetError(PyInspectError):
    code = ErrorCode.PROCESS_NOT_FOUND


class ProcessNotFoundError(TargetError):
    code = ErrorCode.PROCESS_NOT_FOUND


class NotDotNetProcessError(TargetError):
    code = ErrorCode.NOT_DOTNET_PROCESS


class DumpError(TargetError):
    code = ErrorCode.DUMP_ERROR


class DumpDamagedError(TargetError):
    """A fault inside the DAC or ClrMD while reading a dump ended the reader's child process:
    the dump is damaged there. The context names the step (``command``) and, where known,
    the address range; the dump can be opened again."""

    code = ErrorCode.DUMP_DAMAGED


class HeapError(PyInspectError):
    code = ErrorCode.HEAP_READ_ERROR


class NotAnObjectError(HeapError):
    code = ErrorCode.NOT_AN_OBJECT


class HeapReadError(HeapError):
    code = ErrorCode.HEAP_READ_ERROR


class UnknownTypeError(HeapError):
    code = ErrorCode.UNKNOWN_TYPE


class AdapterError(PyInspectError):
    code = ErrorCode.ADAPTER_ERROR


class AdapterDiedError(AdapterError):
    code = ErrorCode.ADAPTER_DIED


class AdapterTimeoutError(AdapterError):
    code = ErrorCode.TIMEOUT


class RequestFailedError(AdapterError):
    code = ErrorCode.ADAPTER_ERROR


class SessionError(PyInspectError):
    code = ErrorCode.NO_SESSION


class NoSessionError(SessionError):
    code = ErrorCode.NO_SESSION


class NotPausedError(SessionError):
    code = ErrorCode.NOT_PAUSED


class UnknownThreadError(SessionError):
    code = ErrorCode.UNKNOWN_THREAD


class UnknownFrameError(SessionError):
    code = ErrorCode.UNKNOWN_FRAME


class UnknownBreakpointError(SessionError):
    code = ErrorCode.UNKNOWN_BREAKPOINT


class VariableUnavailableError(SessionError):
    code = ErrorCode.VARIABLE_UNAVAILABLE


class EvaluationError(SessionError):
    """An expression failed in the debuggee; ``exception_type`` names the .NET
    exception when there was one (the evaluate contract shows it as ``type``)."""

    code = ErrorCode.EVAL_EXCEPTION

    def __init__(self, message: str, *, exception_type: str | None = None, **context: Any) -> None:
        super().__init__(message, **context)
        self.exception_type = exception_type


class EvaluationNeedsCallError(EvaluationError):
    """A read-only evaluation would have to run debuggee code (a method, a computed getter);
    ``call`` names it. evaluate_with_calls (or ``allow_calls=True``) runs it."""

    code = ErrorCode.EVALUATION_NEEDS_CALL


class NotCollectionError(SessionError):
    code = ErrorCode.NOT_COLLECTION


class DepthExceededError(SessionError):
    code = ErrorCode.DEPTH_EXCEEDED


class NoExceptionError(SessionError):
    """exception_get at a stop that is not an exception stop."""

    code = ErrorCode.NO_EXCEPTION


class NoHeapError(SessionError):
    """A heap tool with nothing to read: no heap_attach, dump_open or paused debug session."""

    code = ErrorCode.NO_HEAP


class UnknownSnapshotError(SessionError):
    code = ErrorCode.UNKNOWN_SNAPSHOT


class TraceRunningError(SessionError):
    """trace_start while a recording of this server already runs: one at a time."""

    code = ErrorCode.TRACE_RUNNING


class NoTraceError(SessionError):
    """trace_stop with no recording running."""

    code = ErrorCode.NO_TRACE


class HandleRequiredError(SessionError):
    """A 2026-07-28 request over HTTP has no MCP session: it names its state by handle."""

    code = ErrorCode.HANDLE_REQUIRED


class HandleUnknownError(SessionError):
    """A handle this server never gave this client (forged, mistyped, another client's)."""

    code = ErrorCode.HANDLE_UNKNOWN


class HandleClosedError(SessionError):
    """A handle that ended (idle expiry, its client's session ended, the server's limit)."""

    code = ErrorCode.HANDLE_CLOSED
