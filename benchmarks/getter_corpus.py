"""The getter corpus (issue 25): how much of everyday C# read-only `evaluate` answers from
memory, and whether each answer is func-eval's.

    .venv/bin/python benchmarks/getter_corpus.py [--target webapp|getters|both] [--max-objects N]

Two stops, side by side in one run: tests/targets/WebApp paused in its
`GET /orders/{id}/summary` handler (Program.cs `@bp summary`: the request's `id` and
`HttpContext`, the DI-provided `repository` and `pricing`, the `order` found), and tests/targets/GetterTruth at `@bp getters` (a BCL-heavy sample: user getters of
every shape, Dictionary, List, HashSet, Queue, DateTime, TimeSpan, Nullable, StringBuilder,
Version, KeyValuePair, decimal and struct values, plus its counting, throwing and endless
getters).

The corpus: every public instance property (public getter, no index parameters, inherited
ones included) of every object reachable from the frame's locals through fields to depth 2
(the locals are depth 0, their fields 1, the fields' fields 2; an array's first element
counts as one of its fields; null values, primitives and objects seen before, by address,
are left out). All objects are found first, read-only, so no getter's func-eval changes
what is reached. How the names are found, honestly and without running
any of the target's code: each object's runtime type name is func-eval's
`expr.GetType().FullName` (the truth side), and that type's properties and fields come from
benchmarks/GetterNames, a separate process that loads the assembly files the target has
mapped (/proc/PID/maps, same shared runtime) and lists them by reflection. Each object is
reached by a C# path of field names (`repository._byId._comparer`), read read-only.

For each getter `expr.Property`, in this order: the read-only `evaluate` (DAP `evaluate` with
`noSideEffects`, what the MCP `evaluate` tool sends), timed; then `evaluate_with_calls`
(func-eval, the truth), timed. Both through the same DAP client and frame id. Printed: the
share answered read-only (a value, or the exception the getter threw), the share of those
equal to func-eval's answer (value and type, or exception type and message), time per
getter, and the refusals grouped by their reason (goal: none without a reason; the adapter's
generic "this evaluation is read-only..." sentence is counted as no reason). Goals of issue
25: at least 90% answered, 100% of the answered equal.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from getter_names import GetterNames
from support.targets import marker_line, target_dll, target_source
from support.webapp import free_port, http_get, url_args, wait_until_serving

import pyinspect
from pyinspect.errors import RequestFailedError

NEEDS_CALL = "needs a call into the debuggee (func-eval): "
GENERIC_REASON = "this evaluation is read-only (no side effects), so it runs no debuggee code"
THREW = re.compile(r"\b(System\.[\w.]*Exception): (.*)$", re.DOTALL)
IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
BACKING_FIELD = re.compile(r"^<(\w+)>k__BackingField$")


@dataclass
class Answer:
    """One evaluation: a value (result, type) or a failure message, and how long it took."""
    seconds: float
    value: tuple[str, str] | None = None
    error: str | None = None

    def exception(self) -> tuple[str, str] | None:
        found = THREW.search(self.error or "")
        return (found.group(1), found.group(2).strip()) if found else None


def canon_only(read_only: tuple[str, str], truth: tuple[str, str] | None) -> bool:
    """Equal but for func-eval naming a shared generic's type argument `System.__Canon` (its
    defect: `Box<string>.Value` is a `string`, which the read-only answer says)."""
    if truth is None or read_only[0] != truth[0] or "System.__Canon" not in truth[1]:
        return False
    pattern = ".+".join(re.escape(part) for part in truth[1].split("System.__Canon"))
    return re.fullmatch(pattern, read_only[1]) is not None


@dataclass
class Getter:
    expression: str
    read_only: Answer
    truth: Answer

    def outcome(self) -> str:
        """answered, refused (with the reason as the adapter gave it) or failed; `no truth`
        when func-eval cannot answer it either (an evaluator limit, not the interpreter's)."""
        if self.truth.value is None and self.truth.exception() is None:
            return "no truth"
        error = self.read_only.error
        if error is None or self.read_only.exception() is not None:
            return "answered"
        if NEEDS_CALL in error or "budget" in error:
            return "refused"
        return "failed"

    def equal(self) -> bool:
        if self.read_only.value is not None:
            return self.read_only.value == self.truth.value or canon_only(self.read_only.value, self.truth.value)
        return self.read_only.exception() is not None and self.read_only.exception() == self.truth.exception()

    def reason(self) -> str:
        """The why of a refusal: `...(func-eval): Type.Method (why); <generic sentence>`, the
        interpreter's form; the generic sentence alone (main's form before it) is no reason."""
        error = self.read_only.error or ""
        if NEEDS_CALL not in error:
            return error.strip()
        head, _, tail = error.split(NEEDS_CALL, 1)[1].partition(";")
        why = head[head.index(" (") + 2:head.rindex(")")] if " (" in head and head.endswith(")") else ""
        tail = tail.strip()
        return why or (tail if tail and tail != GENERIC_REASON else "(no reason given)")


@dataclass
class Corpus:
    target: str
    objects: int = 0
    types: set[str] = field(default_factory=set)
    getters: list[Getter] = field(default_factory=list)
    unknown_types: set[str] = field(default_factory=set)


class Evaluator:
    """Both sides of each question through the session's DAP client, same frame."""

    def __init__(self, dbg: pyinspect.Debugger) -> None:
        self.client = dbg.session.client
        thread = dbg.state.thread_id
        assert thread is not None
        self.frame = dbg.session.stop_reader.frame_id(thread, 0)

    def ask(self, expression: str, read_only: bool) -> tuple[Answer, dict[str, Any]]:
        start = time.perf_counter()
        try:
            body = (self.client.evaluate(expression, self.frame, read_only=True) if read_only
                    else self.client.evaluate(expression, self.frame, context="repl", timeout=30))
            answer = Answer(time.perf_counter() - start, value=(str(body.get("result", "")), str(body.get("type") or "")))
            return answer, body
        except RequestFailedError as failed:
            return Answer(time.perf_counter() - start, error=failed.message), {}


PRIMITIVES = {"bool", "byte", "sbyte", "char", "short", "ushort", "int", "uint", "long", "ulong", "float",
              "double", "nint", "nuint"}


@dataclass(frozen=True)
class Reached:
    expression: str
    type_name: str
    properties: tuple[str, ...]


def walk(dbg: pyinspect.Debugger, names: GetterNames, target: str, max_objects: int) -> Corpus:
    """Every object first (so no getter's func-eval changes what is reached), then both
    answers for each getter, read-only first, func-eval right after: the same state."""
    evaluator = Evaluator(dbg)
    corpus = Corpus(target)
    reached = reach(evaluator, dbg, names, corpus, max_objects)
    corpus.objects = len(reached)
    for item in reached:
        corpus.types.add(item.type_name)
        for prop in item.properties:
            question = f"{item.expression}.{prop}"
            read_only, _ = evaluator.ask(question, read_only=True)
            truth, _ = evaluator.ask(question, read_only=False)
            corpus.getters.append(Getter(question, read_only, truth))
    return corpus


def reach(evaluator: Evaluator, dbg: pyinspect.Debugger, names: GetterNames, corpus: Corpus,
          max_objects: int) -> list[Reached]:
    """Objects from the locals through fields (and an array's first element) to depth 2."""
    locals_ = dbg.session.stop_reader.variables(None, 0, "all", None).variables
    level = [v.name for v in locals_ if IDENTIFIER.match(v.name)]
    seen: set[str] = set()
    reached: list[Reached] = []
    for depth in range(3):
        following: list[str] = []
        for expression in level:
            if len(reached) >= max_objects:
                break
            value, body = evaluator.ask(expression, read_only=True)
            if value.value is None or value.value[0] == "null" or value.value[1] in PRIMITIVES:
                continue
            address = str(body.get("memoryReference") or "")
            if address in seen:
                continue
            if address:
                seen.add(address)
            if value.value[1].endswith("]"):  # an array: System.Array's properties, then its first element
                described = names.describe("System.Array")
                children = [f"{expression}[0]"]
            else:
                type_answer, _ = evaluator.ask(f"{expression}.GetType().FullName", read_only=False)
                if type_answer.value is None:
                    corpus.unknown_types.add(f"{value.value[1]} ({type_answer.error})")
                    continue
                described = names.describe(type_answer.value[0].strip('"').split("[", 1)[0])
                children = [f"{expression}.{member}" for member in member_names(described.get("fields", []))]
            if not described.get("found"):
                corpus.unknown_types.add(f"{described['type']} ({described.get('error', 'not found')})")
                continue
            reached.append(Reached(expression, str(described["type"]), tuple(described["properties"])))
            if depth < 2:
                following += children
        level = following
    return reached


def member_names(fields: list[str]) -> list[str]:
    """Field names a C# path can spell: an auto-property's backing field by its property's name."""
    spelled = []
    for name in fields:
        backing = BACKING_FIELD.match(name)
        if backing:
            spelled.append(backing.group(1))
        elif IDENTIFIER.match(name):
            spelled.append(name)
    return spelled


@contextmanager
def getter_truth_stop() -> Iterator[pyinspect.Debugger]:
    with tempfile.TemporaryDirectory() as tmp:
        target = "GetterTruth"
        dbg = pyinspect.launch(str(target_dll(target)), [str(Path(tmp) / "truth.json"), "getters"],
                               breakpoints=[(str(target_source(target)), marker_line(target, "getters"))])
        try:
            assert dbg.wait(120).state == "paused"
            yield dbg
        finally:
            dbg.close()


@contextmanager
def webapp_handler_stop() -> Iterator[pyinspect.Debugger]:
    target = "WebApp"
    port = free_port()
    dbg = pyinspect.launch(str(target_dll(target)), url_args(port),
                           breakpoints=[(str(target_source(target)), marker_line(target, "summary"))])
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        wait_until_serving(port, timeout=120)
        pool.submit(http_get, port, "/orders/7/summary", 600)  # blocks while the handler is stopped
        assert dbg.wait(120).state == "paused"
        yield dbg
    finally:
        dbg.close()
        pool.shutdown(wait=False)


STOPS = {"webapp": ("WebApp: /orders/{id}/summary handler", webapp_handler_stop),
         "getters": ("GetterTruth: BCL-heavy sample", getter_truth_stop)}


def report(corpora: list[Corpus]) -> None:
    rows = [summary(corpus) for corpus in corpora]
    labels = ["objects / types / getters", "func-eval answers (the corpus)", "answered read-only (goal >= 90%)",
              "  equal to func-eval (goal 100%)", "refused (EVALUATION_NEEDS_CALL, budget)",
              "  of which without a reason (goal 0)", "failed otherwise (an evaluator error)",
              "ms per getter: read-only, answered", "ms per getter: read-only, all", "ms per getter: func-eval, all",
              "neither side answers (left out)"]
    print(f"{'':42}" + "".join(f"{c.target[:36]:>38}" for c in corpora))
    for index, label in enumerate(labels):
        print(f"{label:42}" + "".join(f"{cells[index]:>38}" for cells in rows))
    for corpus in corpora:
        details(corpus)


def summary(corpus: Corpus) -> list[str]:
    """One column of the table: the shares are of the getters func-eval answers (the truth)."""
    corpus_getters = [g for g in corpus.getters if g.outcome() != "no truth"]
    answered = [g for g in corpus_getters if g.outcome() == "answered"]
    equal = [g for g in answered if g.equal()]
    refused = [g for g in corpus_getters if g.outcome() == "refused"]
    no_reason = [g for g in refused if g.reason() == "(no reason given)"]
    return [
        f"{corpus.objects} / {len(corpus.types)} / {len(corpus.getters)}",
        str(len(corpus_getters)),
        f"{len(answered)}/{len(corpus_getters)} = {share(len(answered), len(corpus_getters))}",
        f"{len(equal)}/{len(answered)} = {share(len(equal), len(answered))}",
        str(len(refused)),
        str(len(no_reason)),
        str(sum(1 for g in corpus_getters if g.outcome() == "failed")),
        ms([g.read_only.seconds for g in answered]),
        ms([g.read_only.seconds for g in corpus_getters]),
        ms([g.truth.seconds for g in corpus_getters]),
        str(len(corpus.getters) - len(corpus_getters)),
    ]


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} (median)" if values else "-"


QUOTED = re.compile(r"'[^']*'")


def details(corpus: Corpus) -> None:
    """What was not answered, grouped by what was said (the object paths blanked out)."""
    print(f"\n== {corpus.target}")
    groups: dict[str, list[str]] = defaultdict(list)
    for getter in corpus.getters:
        outcome = getter.outcome()
        if outcome == "no truth":
            said = "answered" if getter.read_only.error is None else QUOTED.sub("'...'", getter.reason())
            groups[f"neither side answers: func-eval: {QUOTED.sub(chr(39) + '...' + chr(39), getter.truth.error or '')}"
                   f" | read-only: {said}"].append(getter.expression)
        elif outcome == "refused":
            groups[f"refused: {getter.reason()}"].append(getter.expression)
        elif outcome == "failed":
            groups[f"failed: {QUOTED.sub(chr(39) + '...' + chr(39), getter.reason())}"].append(getter.expression)
    for reason, expressions in sorted(groups.items(), key=lambda item: (item[0].split(":")[0], -len(item[1]))):
        print(f"  {len(expressions):4}  {reason[:200]}")
        print(f"        {', '.join(expressions[:4])}{', ...' if len(expressions) > 4 else ''}")
    unequal = [g for g in corpus.getters if g.outcome() == "answered" and not g.equal()]
    if unequal:
        print("answered but NOT equal to func-eval:")
        for getter in unequal:
            print(f"  {getter.expression}: read-only {getter.read_only.value or getter.read_only.error!r} "
                  f"vs func-eval {getter.truth.value or getter.truth.error!r}")
    if corpus.unknown_types:
        print(f"objects left out (type not found): {', '.join(sorted(corpus.unknown_types))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", choices=["webapp", "getters", "both"], default="both")
    parser.add_argument("--max-objects", type=int, default=400)
    options = parser.parse_args()
    chosen = list(STOPS) if options.target == "both" else [options.target]
    corpora = []
    for key in chosen:
        title, stop = STOPS[key]
        with stop() as dbg:
            pid = dbg.state.pid
            assert pid is not None
            with GetterNames.for_process(pid) as names:
                corpora.append(walk(dbg, names, title, options.max_objects))
    report(corpora)


if __name__ == "__main__":
    main()
