"""Reading a damaged dump again without the step the DAC faulted in, and only such a step."""

from __future__ import annotations

import pytest

from pyinspect.errors import DumpDamagedError
from pyinspect.heap.skipped_steps import MAX_SKIPPED, leaving_out

STATICS = "static roots of module /x/System.Private.CoreLib.dll"
STACK = "stack roots of OS thread 4242"


def test_each_faulting_step_is_left_out_in_turn_until_the_read_answers() -> None:
    asked: list[str] = []

    def read(skip: str) -> str:
        asked.append(skip)
        for step in (STATICS, STACK):
            if step not in skip.split("\n"):
                raise DumpDamagedError("the reader ended", step="graph", last_step=step)
        return "graph"

    assert leaving_out(read) == "graph"
    assert asked == ["", STATICS, f"{STATICS}\n{STACK}"]


def test_a_fault_in_a_step_that_cannot_be_left_out_is_raised_at_once() -> None:
    calls: list[str] = []

    def read(skip: str) -> str:
        calls.append(skip)
        raise DumpDamagedError("the reader ended", step="graph", last_step="dominators")

    with pytest.raises(DumpDamagedError):
        leaving_out(read)
    assert calls == [""]


def test_skipping_stops_after_the_bound() -> None:
    calls: list[str] = []

    def read(skip: str) -> str:
        calls.append(skip)
        raise DumpDamagedError("the reader ended", last_step=f"stack of OS thread {len(calls)}")

    with pytest.raises(DumpDamagedError):
        leaving_out(read)
    assert len(calls) == MAX_SKIPPED + 1
