"""diagnose on the corpus (tests/targets/Ailments): each sick mode's first finding is its
kind with the evidence the program says made it (thread ids, types, the root, the method and
its line), live and from a dump; the healthy mode has nothing above "info". Every kind on
.NET 10, 9 and 8 (self-contained publishes for 8 and 9). One process per case."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from support.diagnosed import RECORDED, Diagnosed, diagnosed
from support.targets import marker_line

from pyinspect.models.diagnosis import Finding

pytestmark = pytest.mark.timeout(600)

MODES = ("deadlock-monitor", "deadlock-mixed", "deadlock-semaphore", "convoy", "starvation", "async-stuck", "finalizer",
         "leak-static", "leak-event", "leak-timer", "growth", "duplicate-strings", "wasted-capacity", "pinning",
         "gc-pressure", "crash", "healthy-batch")
# System.Threading.Lock is .NET 9's: on .NET 8 the mixed deadlock is monitors alone, as deadlock-monitor
CASES = [(framework, mode) for framework in ("net10.0", "net9.0", "net8.0") for mode in MODES
         if (framework, mode) != ("net8.0", "deadlock-mixed")]


@pytest.fixture(scope="module", params=CASES, ids=[f"{fw}-{mode}" for fw, mode in CASES])
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Diagnosed]:
    framework, mode = request.param
    with diagnosed(framework, mode, tmp_path_factory.mktemp(f"{mode}-{framework}")) as (answer, _):
        yield answer


def _names(methods: object) -> list[str]:
    return [m.method.split("(", 1)[0] for m in methods]  # type: ignore[attr-defined]


def _line(marker: str, file: str) -> int:
    return marker_line("Ailments", marker, file)


def check_deadlock(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing
    semaphore = case.ailing.mode == "deadlock-semaphore"  # no owner: who holds its slot is inferred
    assert first.severity == "critical" and first.confidence == ("medium" if semaphore else "high")
    if semaphore:
        assert "count 0" in first.statement and "inferred" in first.statement
        assert first.evidence.measures["semaphoreCount"] == 0
        assert _line("take-slot", "Hangs.cs") in {m.line for m in first.evidence.methods}
    assert {t.os_thread_id for t in first.evidence.threads} == truth.os_ids("deadlock-")
    assert {t.managed_thread_id for t in first.evidence.threads} == {t["managedThreadId"] for t in truth.truth["threads"]}
    assert {o.type for o in first.evidence.objects} == set(truth.truth["types"])
    assert set(_names(first.evidence.methods)) == set(truth.truth["methods"])
    assert all(m.file and m.file.endswith("Hangs.cs") for m in first.evidence.methods)


def check_convoy(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing
    owner = [t for t in first.evidence.threads if t.role == "owner"]
    waiters = [t for t in first.evidence.threads if t.role == "waiter"]
    assert first.severity == "error" and [t.os_thread_id for t in owner] == [truth.thread("convoy-owner")["osThreadId"]]
    assert {t.os_thread_id for t in waiters} == truth.os_ids("convoy-waiter-")
    assert first.evidence.objects[0].type == "Ailments.Gate"
    hold = first.evidence.methods[0]
    assert _names([hold]) == ["Ailments.Hangs.Hold"] and hold.line == _line("convoy-holds", "Hangs.cs")
    assert "Ailments.Hangs.Enter" in _names(first.evidence.methods)


def check_starvation(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing
    assert {t.os_thread_id for t in first.evidence.threads} == truth.os_ids("pool-")
    assert len(first.evidence.threads) == truth.truth["count"]
    assert "sync-over-async" in first.statement and first.evidence.measures["queued"] >= 1
    assert set(_names(first.evidence.methods)) == {"Ailments.Starvation.Handle"}
    lines = {m.line for m in first.evidence.methods}
    assert lines <= {_line("starve-result", "Starvation.cs"), _line("starve-getresult", "Starvation.cs")}


def check_async(first: Finding, case: Diagnosed) -> None:
    assert _names(first.evidence.methods) == case.ailing.truth["methods"]  # innermost first
    assert first.evidence.methods[0].line == _line("orphan-inner", "Starvation.cs")
    assert first.evidence.objects[0].type == case.ailing.truth["types"][0]


def check_finalizer(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing
    assert [t.os_thread_id for t in first.evidence.threads] == [truth.thread("finalizer")["osThreadId"]]
    assert _names(first.evidence.methods) == truth.truth["methods"]
    assert first.evidence.methods[0].line == _line("finalizer-blocks", "Finalizers.cs")
    queued = {t.type: t.count for t in first.evidence.types}
    assert queued["Ailments.Pending"] == truth.truth["count"]


def check_retained(first: Finding, case: Diagnosed) -> None:
    truth, mode = case.ailing.truth, case.ailing.mode
    path = first.evidence.path
    assert path is not None and first.severity == "warning"
    assert first.evidence.measures["retainedBytes"] >= truth["bytes"]
    owner = first.evidence.objects[0]
    assert owner.retained_size is not None and owner.retained_size >= truth["bytes"]
    if mode == "leak-timer":
        assert first.statement.startswith("a timer") and owner.type == "System.Threading.TimerQueueTimer"
        assert set(truth["types"]) <= {s.type for s in path.steps}
        return
    assert path.root.kind == "static" and path.root.name.endswith(truth["root"])
    assert owner.type == truth["types"][0] and path.steps[0].address == owner.address
    assert ("event" in first.statement) == (mode == "leak-event")


def check_growth(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing.truth
    grown = {t.type: t for t in first.evidence.types}
    assert set(truth["types"]) <= set(grown) and first.evidence.measures["grownBytes"] >= 4 << 20
    assert grown["Ailments.Entry"].count > 0 and grown["System.Byte[]"].size >= grown["Ailments.Entry"].count * 1024
    assert first.evidence.objects[0].type == "Ailments.Entry" and first.confidence == "high"
    path = first.evidence.path
    assert path is not None and path.root.kind == "static" and path.root.name.endswith(truth["root"])
    assert path.steps[-1].address == first.evidence.objects[0].address


def check_pressure(first: Finding, case: Diagnosed) -> None:
    measures = first.evidence.measures
    assert measures["induced"] >= 3 and "induced by GC.Collect" in first.statement
    assert first.evidence.types[0].type == case.ailing.truth["types"][0]
    assert _names(first.evidence.methods)[:1] == case.ailing.truth["methods"]


def check_duplicates(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing.truth
    assert first.evidence.measures["wastedBytes"] >= truth["bytes"]
    assert first.evidence.types[0].count >= truth["count"]
    assert {"a" * 100, "b" * 100} <= set(first.evidence.examples)


def check_capacity(first: Finding, case: Diagnosed) -> None:
    truth = case.ailing.truth
    assert first.evidence.measures["wastedBytes"] >= truth["bytes"]
    top = first.evidence.types[0]
    assert (top.type, top.count) == (truth["types"][0], truth["count"]) and top.size == truth["bytes"]
    assert first.evidence.examples[0] == truth["root"] and first.evidence.objects[0].type == truth["types"][0]


def check_fragmentation(first: Finding, case: Diagnosed) -> None:
    measures = first.evidence.measures
    pins = case.ailing.truth["count"]  # the program's pins; some sit in segments it left mostly full
    assert pins / 4 <= measures["pinnedObjects"] <= pins + 64 and measures["freeBytes"] >= 16 << 20
    assert measures["freeShare"] >= 0.5 and measures["segments"] >= 4 and first.confidence == "medium"
    assert all(o.type.startswith("segment Generation") for o in first.evidence.objects)


def check_crash(first: Finding, case: Diagnosed) -> None:
    crasher = case.ailing.thread("crasher")
    assert first.severity == "critical"
    assert [(t.os_thread_id, t.managed_thread_id) for t in first.evidence.threads] == \
        [(crasher["osThreadId"], crasher["managedThreadId"])]
    assert [o.type for o in first.evidence.objects] == case.ailing.truth["types"]
    assert _names(first.evidence.methods) == case.ailing.truth["methods"]
    assert first.evidence.methods[0].line == _line("crash", "Crash.cs")
    assert "ailments-crash" in first.statement and "inner-cause" in first.statement


CHECKS: dict[str, Callable[[Finding, Diagnosed], None]] = {
    "deadlock": check_deadlock, "lock-convoy": check_convoy, "thread-pool-starvation": check_starvation,
    "async-never-completes": check_async, "finalizer-blocked": check_finalizer, "retained-memory": check_retained,
    "duplicate-strings": check_duplicates, "wasted-capacity": check_capacity, "fragmentation": check_fragmentation,
    "crash": check_crash, "memory-growth": check_growth,
    "gc-pressure": check_pressure}


@pytest.mark.parametrize("source", ["live", "dump"])
def test_the_first_finding_is_the_programs_pathology_with_its_evidence(case: Diagnosed, source: str) -> None:
    if source not in case.answers:
        assert case.ailing.mode == "crash"  # a crash is read from the dump its runtime wrote
        return
    answer = case.answers[source]
    if case.ailing.mode == "gc-pressure" and source == "dump":
        assert "gc-pressure" in answer.unchecked and not answer.findings  # a dump has no GCs to record
        return
    assert ("gc-pressure" in answer.checked) == (source == "live" and case.ailing.mode in RECORDED)
    kind = case.ailing.truth["kind"]
    summary = [(f.severity, f.kind, f.statement[:160]) for f in answer.findings]
    if kind is None:
        assert all(f.severity == "info" for f in answer.findings), summary
        return
    assert answer.findings, f"no finding for {case.ailing.mode}"
    first = answer.findings[0]
    assert first.kind == kind, summary
    CHECKS[kind](first, case)
    if kind == "memory-growth" and source == "live":  # recorded: the code adding them, from its samples
        assert _names(first.evidence.methods)[:1] == case.ailing.truth["methods"]
    assert first.next_calls and first.statement
    assert "crash" in answer.checked or source == "live"
    print(f"\n{case.ailing.framework} {case.ailing.mode} {source}: {first.kind} in {case.wall[source]} s wall")
