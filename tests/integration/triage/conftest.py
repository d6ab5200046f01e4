"""HangShape per runtime: the hung process (read live, frozen while read) and a crashed
one's dump (its runtime's own full dump on the unhandled exception), shared by a module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.hangshape import RUNTIMES, Hang, crash_dump, hung

from pyinspect.heap import HeapReader


@pytest.fixture(scope="module", params=RUNTIMES)
def framework(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def hang(framework: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hang]:
    with hung(framework, tmp_path_factory.mktemp(f"hang-{framework}")) as running:
        yield running


@pytest.fixture(scope="module")
def crash(framework: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hang, Path]]:
    folder = tmp_path_factory.mktemp(f"crash-{framework}")
    truth, dump = crash_dump(framework, folder)
    yield truth, dump
    dump.unlink(missing_ok=True)


@pytest.fixture(scope="module", params=["live", "crash-dump"])
def source(request: pytest.FixtureRequest, hang: Hang, crash: tuple[Hang, Path]) -> Iterator[tuple[str, Hang, HeapReader]]:
    """(kind, its truth, a reader): the hung process frozen while read, or the crash dump."""
    if request.param == "live":
        reader = HeapReader.attach(hang.pid, suspend=True)
        truth = hang
    else:
        truth, dump = crash
        reader = HeapReader.open_dump(dump)
    try:
        yield request.param, truth, reader
    finally:
        reader.close()
