"""Calls into the heap helper named as data: which object, which member, which arguments.

A HeapReader never holds a pythonnet object: it names its calls (:class:`Call`), and the
process that loaded the helper runs them against its table of helper objects. A .NET
object an answer returns (a walk, a graph) stays in that table and travels as a
:class:`Ref`; strings, numbers and booleans travel as themselves. A live process's calls
run here, through pythonnet (:class:`HelperObjects`); a dump's run in the helper's own
process (heap.dump_child, dotnet/PyInspect.Heap/Host/NamedCalls.cs: the same rule), so a
fault inside the DAC on a damaged dump ends only that process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyinspect.errors import InvalidParameterError
from pyinspect.heap import dotnet_bridge

__all__ = ["TARGET", "Call", "HelperObjects", "Ref"]


@dataclass(frozen=True)
class Ref:
    """A helper object held by the process that runs the calls; ``generation`` tells a
    restarted child's objects from those of the one that ended."""

    id: int
    generation: int = 0


TARGET = Ref(0)
"""The opened target (the helper's HeapTarget): always the first object of a table."""


@dataclass(frozen=True)
class Call:
    """``member`` of ``on`` (a Ref, or a helper type's name for a static method), called
    with ``args`` (a Ref among them stands for its object), or read when ``args`` is None."""

    on: Ref | str
    member: str
    args: tuple[Any, ...] | None = ()


class HelperObjects:
    """The helper objects a live process's reader addresses, in this process (pythonnet)."""

    def __init__(self) -> None:
        self._objects: dict[int, Any] = {}
        self._next = 1

    def attach(self, pid: int, suspend: bool, dac: str) -> None:
        """Open the live process as the table's first object, read with its own runtime's DAC."""
        self._objects = {TARGET.id: dotnet_bridge.call(lambda: dotnet_bridge.helper().HeapTarget.Attach(pid, suspend,
                                                                                                       dac))}

    def run(self, call: Call) -> Any:
        """One call's answer: a str, int, float, bool or None as itself, any other .NET object as a Ref."""
        def invoke() -> Any:
            owner = self._owner(call.on)
            member = getattr(owner, call.member)
            if call.args is None:
                return member
            return member(*(self._resolve(a) for a in call.args))

        return self._answer(dotnet_bridge.call(invoke))

    def release(self, ref: Ref) -> None:
        self._objects.pop(ref.id, None)

    def close(self) -> None:
        """Dispose of the target (a suspended process resumes) and forget every object."""
        target = self._objects.get(TARGET.id)
        self._objects = {}
        if target is not None:
            dotnet_bridge.call(lambda: target.Dispose())

    def _owner(self, on: Ref | str) -> Any:
        if isinstance(on, str):
            return getattr(dotnet_bridge.helper(), on)
        return self._resolve(on)

    def _resolve(self, value: Any) -> Any:
        if not isinstance(value, Ref):
            return value
        if value.id not in self._objects:
            raise InvalidParameterError("this heap object was released or the target closed", ref=value.id)
        return self._objects[value.id]

    def _answer(self, value: Any) -> Any:
        if value is None or isinstance(value, (str, bool, int, float)):
            return value
        ref = Ref(self._next)
        self._next += 1
        self._objects[ref.id] = value
        return ref
