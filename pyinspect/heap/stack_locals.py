"""Stack roots named by the local that holds them, as a paused debugger shows it.

ClrMD reports a stack root as a thread, a frame's method and a stack slot, but not which
local the slot belongs to (the JIT's map from locals to slots is not exposed to it). The
debugger knows each frame's locals and arguments and the object each holds (DAP
``memoryReference``), and its thread ids are the OS thread ids ClrMD reports. So while the
process is still paused at the stop the graph was read at, a stack root is named by the
variables of a frame of the same thread and method holding the root's object. A frame
that cannot be matched by method names nothing: a name is given only where it is known.
The frames are read through :class:`StackReader` (pyinspect.session.stack_names reads them over DAP).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from pyinspect.models.heapgraph import RetentionPath, RetentionPaths

__all__ = ["StackReader", "method_key", "name_locals", "root_method"]


class StackReader(Protocol):
    """A paused process's frames as the debugger shows them (leaf first)."""

    def frame_methods(self, thread: int) -> Sequence[str] | None:
        """Each frame's method name, or None when the debugger has no such thread."""

    def frame_variables(self, thread: int, frame: int) -> Sequence[tuple[str, int]]:
        """(name, object address) of the frame's locals and arguments that hold an object."""


# The adapter shows compiler-generated methods as the code was written (its
# StateMachineFrames and ClosureFrames); ClrMD shows them as compiled. Both go through
# the same rewriting here, so they compare.
_MOVE_NEXT = re.compile(r"^(?P<outer>.+)\.<(?P<method>[^>]+)>d__\d+\.MoveNext$")
_LAMBDA = re.compile(r"^(?P<outer>.+?)\.<>c(?:__DisplayClass[\d_]+)?\.<(?P<method>[^>]+)>b__(?P<n>[\d_]+)$")
_LOCAL_FUNCTION = re.compile(r"^(?P<outer>.+?)\.<(?P<method>[^>]+)>g__(?P<local>[^|]+)\|[\d_]+$")


def method_key(signature: str) -> str:
    """Namespace.Type.Method of a frame as ClrMD (``Ns.Outer+Inner<System.Int32>.M(System.Int32)``)
    and the debugger (``Ns.Outer.Inner.M()``) both write it: nesting as dots, no type
    arguments or arity, state machines and lambdas under the method they implement."""
    name = _without_type_arguments(signature.split("(", 1)[0]).replace("+", ".").strip()
    name = re.sub(r"`\d+", "", name)
    if m := _MOVE_NEXT.match(name):
        name = f"{m['outer']}.{m['method']}"
    if m := _LAMBDA.match(name):
        return f"{m['outer']}.{m['method']}.AnonymousMethod__{m['n']}"
    if m := _LOCAL_FUNCTION.match(name):
        return f"{m['outer']}.{m['method']}.{m['local']}"
    return name


def _without_type_arguments(name: str) -> str:
    """``Cache<System.Func<int>>.Get`` as ``Cache.Get``: a ``<`` right after a name opens
    type arguments; compiler names (``<Main>$``, ``<>c``) start after a dot."""
    kept: list[str] = []
    depth = 0
    for char in name:
        if depth:
            depth += (char == "<") - (char == ">")
        elif char == "<" and kept and (kept[-1].isalnum() or kept[-1] == "_"):
            depth = 1
        else:
            kept.append(char)
    return "".join(kept)


def root_method(name: str) -> str | None:
    """The method of a stack root named ``thread N: <signature>``; None when unknown."""
    prefix, sep, where = name.partition(": ")
    if not sep or not prefix.startswith("thread ") or not where or where == "?":
        return None
    return method_key(where)


def name_locals(paths: RetentionPaths, stacks: StackReader) -> RetentionPaths:
    """The paths with each stack root's ``local`` set where its frame could be matched and
    one of its variables holds the root's object; every other root as it was."""
    frames: dict[int, Sequence[str] | None] = {}
    named = []
    for path in paths.paths:
        local = _local_of(path, stacks, frames)
        if local is not None:
            path = path.model_copy(update={"root": path.root.model_copy(update={"local": local})})
        named.append(path)
    return paths.model_copy(update={"paths": tuple(named)})


def _local_of(path: RetentionPath, stacks: StackReader, frames: dict[int, Sequence[str] | None]) -> str | None:
    root = path.root
    method = root_method(root.name)
    if root.kind != "stack" or root.thread is None or method is None or not path.steps:
        return None
    address = int(path.steps[0].address, 16)
    if root.thread not in frames:
        frames[root.thread] = stacks.frame_methods(root.thread)
    names: list[str] = []
    for index, frame_method in enumerate(frames[root.thread] or ()):
        if method_key(frame_method) != method:
            continue
        for name, holds in stacks.frame_variables(root.thread, index):
            if holds == address and name not in names:
                names.append(name)
    return ", ".join(names) or None
