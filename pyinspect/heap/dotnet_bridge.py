"""The only module that imports pythonnet: loads CoreCLR once and the heap helper.

Every call into .NET goes through :func:`call`, which turns a .NET exception into a
pyinspect error (the helper's ``HeapTargetException`` carries our error code), so no
pythonnet traceback ever reaches a user.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from pyinspect.errors import (
    DumpError,
    ErrorCode,
    HeapReadError,
    InvalidParameterError,
    NotAnObjectError,
    NotCollectionError,
    NotDotNetProcessError,
    ProcessNotFoundError,
    PyInspectError,
    SetupMissingError,
)
from pyinspect.targets.dotnet_paths import dotnet_host, dotnet_tool

__all__ = ["call", "helper"]

T = TypeVar("T")
_lock = threading.Lock()
_helper: Any = None

_ERRORS: dict[str, type[PyInspectError]] = {
    ErrorCode.PROCESS_NOT_FOUND: ProcessNotFoundError,
    ErrorCode.NOT_DOTNET_PROCESS: NotDotNetProcessError,
    ErrorCode.DUMP_ERROR: DumpError,
    ErrorCode.NOT_AN_OBJECT: NotAnObjectError,
    ErrorCode.HEAP_READ_ERROR: HeapReadError,
    ErrorCode.INVALID_PARAMETER: InvalidParameterError,
    ErrorCode.NOT_COLLECTION: NotCollectionError,
}


def helper() -> Any:
    """The PyInspect.Heap namespace, loading CoreCLR and the helper on first use."""
    global _helper
    with _lock:
        if _helper is None:
            _helper = _load()
        return _helper


def _load() -> Any:
    dll = dotnet_tool("PyInspect.Heap")
    try:
        import pythonnet

        try:
            # The helper's own runtimeconfig.json names the runtime: pythonnet would otherwise
            # run `dotnet --list-runtimes` (a child process) to write a config of its own.
            pythonnet.load("coreclr", runtime_config=str(dll.with_suffix(".runtimeconfig.json")),
                           dotnet_root=str(dotnet_host().parent))
        except RuntimeError:
            pass  # a runtime is already loaded in this process
        import clr

        clr.AddReference(str(dll))
        import PyInspect.Heap as heap_namespace
    except Exception as exc:  # pythonnet raises many kinds here
        raise SetupMissingError(f"cannot load the heap helper through pythonnet: {exc}", dll=str(dll)) from exc
    return heap_namespace


def call(action: Callable[[], T], **context: Any) -> T:
    """Run one helper call, translating .NET failures into pyinspect errors."""
    try:
        return action()
    except PyInspectError:
        raise
    except Exception as exc:  # noqa: BLE001 - any .NET exception crosses here
        raise translate(exc, **context) from None


def translate(exc: BaseException, **context: Any) -> PyInspectError:
    code = str(getattr(exc, "Code", "") or "")
    message = str(getattr(exc, "Message", "") or exc)
    error_type = _ERRORS.get(code, HeapReadError)
    return error_type(message, **context)
