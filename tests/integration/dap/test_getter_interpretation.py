"""Issue 25's proof for read-only evaluation (the IL interpreter): GetterTruth stops with a
getter of every shape in its locals. A side-effect-free getter answers read-only exactly
what func-eval (`evaluate_with_calls`, the truth) answers, value and type, and where the
program computed it itself, what the program computed. A getter that would change the
program is refused with EVALUATION_NEEDS_CALL naming it and why, and the program's own
side-effect counter (SideEffects.Count, read from memory) has not moved; func-eval then
runs it and the counter moves, so the check can fail. A throwing getter answers its
exception as func-eval does; an endless one answers that the instruction budget ran out.

One launch for the whole module: every test reads the counter before and after itself."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from support.targets import marker_line, read_truth, target_dll, target_source

import pyinspect
from pyinspect.errors import EvaluationError, EvaluationNeedsCallError

TARGET = "GetterTruth"


@dataclass
class GetterStop:
    dbg: pyinspect.Debugger
    truth: dict[str, Any]

    def read_only(self, expression: str) -> tuple[str, str]:
        answer = self.dbg.eval(expression)
        return str(answer), answer.type

    def with_calls(self, expression: str) -> tuple[str, str]:
        answer = self.dbg.eval(expression, allow_calls=True)
        return str(answer), answer.type

    def frame(self) -> int:
        thread = self.dbg.state.thread_id
        assert thread is not None
        return self.dbg.session.stop_reader.frame_id(thread, 0)

    def counter(self) -> int:
        """SideEffects.Count, read from memory (a static field: no getter runs)."""
        return int(self.dbg.eval("SideEffects.Count"))


@pytest.fixture(scope="module")
def stop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GetterStop]:
    truth = tmp_path_factory.mktemp("getter-truth") / "truth.json"
    source = str(target_source(TARGET))
    dbg = pyinspect.launch(str(target_dll(TARGET)), [str(truth), "getters"],
                           breakpoints=[(source, marker_line(TARGET, "getters"))])
    try:
        state = dbg.wait(60)
        assert state.state == "paused", state
        yield GetterStop(dbg, read_truth(truth))
    finally:
        dbg.close()


def shown(value: Any) -> str:
    """How the adapter shows a value the program wrote to its truth file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


@dataclass(frozen=True)
class Effect:
    expression: str
    getter: str
    why: tuple[str, ...]  # words of which the refusal's reason must hold one


# Expressions of getters (and methods) that change nothing. Those the program also computed
# itself are checked against its truth file too.
PURE = [
    # expression-bodied, auto, computed with loops, methods with arguments
    "person.First", "person.Last", "person.Age", "person.FullName", "person.ItemCount", "person.IsEmpty",
    "person.Initials", "person.LetterCount", "person.SumOfSquaresToAge", "loner.IsAdult", 'person.Greet("Hello")',
    # virtual overrides through a base reference, an inherited override, a non-virtual calling virtuals
    "circle.Area", "circle.Kind", "circle.Describe", "square.Area", "square.Kind", "square.Corners",
    "square.Describe", "rectangle.Corners",
    # interface properties: an implicit implementation through an interface-typed local; the
    # explicit one called from IL (the evaluator cannot name `named.Rank` even with func-eval)
    "named.Name", "employee.Level", "employee.RankViaInterface", "Employee.RankOf(named)",
    # generic types
    "intBox.Value", "intBox.Text", "textBox.Value", "textBox.HasValue", "emptyBox.HasValue", "pair.Key",
    "pair.Text", "pair.SameText",
    # structs
    "money.Amount", "money.Currency", "money.IsZero", "zero.IsZero", "money.WithTax", "money.Display",
    "point.LengthSquared", "point.DoubledX",
    # values a getter makes, which the debuggee does not hold: structs (shown as the adapter shows
    # their type), a null declared `string`, and a sequence enumerated through Enumerable.Cast
    "point.Doubled", "when.Date", "when.TimeOfDay", "span.Duration()", "pairOfBcl.Value.Date", "person.Nickname",
    "ages.Values.Sum()",
    # statics
    "Settings.Level", "Settings.LevelSquared", "Settings.Mode", "Settings.Gcd(84, 36)",
    # BCL values in locals
    "ages.Count", "numbers.Count", "numbers.Capacity", "unique.Count", "queue.Count", "when.Year", "when.Hour",
    "when.DayOfYear", "when.DayOfWeek", "span.TotalSeconds", "span.Minutes", "maybe.Value", "maybe.HasValue",
    "nothing.HasValue", "string.IsNullOrEmpty(text)", "string.IsNullOrEmpty(empty)", "text.Length", "price * quantity",
    "builder.Length", "version.Minor", "pairOfBcl.Key", "pairOfBcl.Value.Month", "text.ToUpperInvariant()",
    "text.IndexOf('w')", 'text.Contains("world")',
    # typeof: `typeof(TFeature) ==` chains as Kestrel's feature collection has them, a Type the
    # program holds against typeof, GetType() against typeof, typeof of a type argument
    "features.Method", "features.UserName", "anonymous.UserName", "features.HasMissing", "features.HeldKindIsUser",
    "features.HeldKindIsRequest", "features.RequestIsFeature", "textSlot.Kind", "numberSlot.Kind", "personSlot.Kind",
    # statics of generic types (Registry<string>.Items, EqualityComparer<string>.Default)
    "catalog.RegisteredNames", "catalog.NamesEqual",
    # try/catch: by the class, by a base class, by a filter
    "guarded.SafeTenth", "guarded.CaughtByBase", "guarded.CaughtByFilter",
    # Dictionary lookups by string key (the BCL's non-randomized string hash) and by int key
    'ages["bob"]', 'ages.ContainsKey("ann")', 'ages.ContainsKey("zed")', "names[2]", "names.ContainsKey(3)",
    "names.ContainsKey(7)",
    # lambdas handed to LINQ inside a getter: a static lambda (its cache field in `<>c` filled by
    # the program before the stop), one capturing `this`, a closure over an argument, a method
    # group, a delegate held in a field, generic math (`Sum` of decimals: `TResult.Zero`), and a
    # lambda the program never ran (its cache field is empty: filled inside the evaluation only)
    "basket.Total", "basket.BigLines", "basket.AnyInk", "basket.CheapLines", "basket.NamedLines", "basket.Over(1)",
    "basket.FirstBig", "basket.Unseen",
    # an iterator getter (its MoveNext leaves a try/fault at every yield) enumerated by the evaluator
    "basket.LineNames.Count()", "basket.LineNames.Last()",
    # a Nullable the getter makes, with a value and without, as the answer and inside an expression
    "basket.QuantityOver(1)", "basket.QuantityOver(5)", "basket.QuantityOver(1) + 1", "basket.QuantityOver(1).HasValue",
    "basket.QuantityOver(5).HasValue",
    # thread statics: the stopped thread's own (func-eval runs on that thread)
    "threadReport.Current", "PerThread.Describe",
    # kin of the issue's own example (the program made `ages.Values` before the stop, so the
    # getter finds its cache filled and stores nothing)
    "numbers.Where(n => n > 10).Count()",
]

@pytest.mark.parametrize("expression", PURE)
def test_a_side_effect_free_getter_answers_read_only_what_func_eval_answers(stop: GetterStop, expression: str) -> None:
    before = stop.counter()
    read_only = stop.read_only(expression)
    truth = stop.with_calls(expression)
    assert read_only == truth, expression
    if expression in stop.truth["values"]:
        assert truth[0] == shown(stop.truth["values"][expression]), "func-eval disagrees with the program itself"
    assert stop.counter() == before, "a getter listed as pure moved the side-effect counter"
    assert stop.truth["sideEffects"] == 0


MADE_STRUCTS = ["when.Date", "when.TimeOfDay", "span.Duration()"]


@pytest.mark.parametrize("expression", MADE_STRUCTS)
def test_a_struct_a_getter_makes_is_shown_by_the_value_the_program_computed(stop: GetterStop, expression: str) -> None:
    """DateTime and TimeSpan are shown by their value: the text the program wrote for the same getter."""
    assert stop.read_only(expression)[0] == stop.truth["made"][expression]


def test_a_struct_a_getter_makes_expands_to_its_fields_and_has_no_address(stop: GetterStop) -> None:
    """`point.Doubled` lives in the adapter: its children are its fields with the program's values,
    and the answer claims no memory in the debuggee (func-eval's copy has one)."""
    client, frame = stop.dbg.session.client, stop.frame()
    made = client.evaluate("point.Doubled", frame, read_only=True)
    assert (made["result"], made["type"]) == ("{GetterTruth.Point}", "GetterTruth.Point")
    assert "memoryReference" not in made
    assert made["variablesReference"] > 0
    fields = {v["name"]: (v["value"], v["type"]) for v in client.variables(made["variablesReference"])}
    truth = stop.truth["made"]["point.Doubled"]
    assert fields == {name: (str(value), "int") for name, value in truth.items()}
    assert stop.read_only("point.Doubled.X") == (str(truth["X"]), "int")
    assert stop.read_only("point.Doubled.LengthSquared") == stop.with_calls("point.Doubled.LengthSquared")


def test_a_null_answers_the_type_its_getter_declares_instantiated(stop: GetterStop) -> None:
    """`Box<string>.Value` is declared `T`: a null from it is a `string`. func-eval says
    `System.__Canon` there (the shared generic code's placeholder: func-eval's defect, not ours)."""
    assert stop.truth["made"]["emptyBox.Value"] == "null"
    assert stop.read_only("emptyBox.Value") == ("null", "string")
    assert stop.with_calls("emptyBox.Value")[0] == "null"
    assert stop.truth["made"]["person.Nickname"] == "null"
    assert stop.read_only("person.Nickname") == ("null", "string")
    assert stop.read_only("emptyBox.Value ?? \"none\"") == ('"none"', "string"), "inside an expression the null is a null"


LAZY = ["catalogue.Title", "catalogue.Label.Text", "catalogue.StockKinds", "catalogue.SameLabelTwice"]
CACHES = ["catalogue._title", "catalogue._label", "catalogue._stock._keys"]


def test_a_delegate_the_debuggee_holds_that_is_multicast_is_refused_with_its_reason(stop: GetterStop) -> None:
    assert_refused_with_reason(stop, Effect("basket.MulticastLines", "GetterTruth.Basket.get_MulticastLines", ("multicast",)))
    assert stop.with_calls("basket.MulticastLines") == ("1", "int")


def test_a_lazy_cache_is_filled_inside_the_evaluation_only(stop: GetterStop) -> None:
    """`_title ??= ...`, `_label ??= new Label(...)`, Dictionary.Keys: at the stop the caches hold
    null. Read-only evaluation answers what the program's twin computed and the caches still hold
    null; a store into a field the evaluation already filled is refused; func-eval then fills them
    (so the emptiness check can fail), and read-only answers the same again from the filled caches."""
    assert [stop.read_only(cache)[0] for cache in CACHES] == ["null"] * len(CACHES)
    answers = {expression: stop.read_only(expression) for expression in LAZY}
    assert {e: a[0] for e, a in answers.items()} == {e: shown(stop.truth["values"][e]) for e in LAZY}
    assert [stop.read_only(cache)[0] for cache in CACHES] == ["null"] * len(CACHES), "the evaluation wrote into the program"
    assert_refused_with_reason(stop, Effect("catalogue.Retitled", "GetterTruth.Catalogue.get_Retitled", ("holds a value",)))
    assert {expression: stop.with_calls(expression) for expression in LAZY} == answers
    assert "null" not in [stop.read_only(cache)[0] for cache in CACHES], "func-eval filled no cache: the checks prove nothing"
    assert {expression: stop.read_only(expression) for expression in LAZY} == answers


def assert_refused_with_reason(stop: GetterStop, refusal: Effect) -> None:
    """Read-only evaluation refuses, naming the getter and a reason (outside the names)."""
    with pytest.raises(EvaluationNeedsCallError) as refused:
        stop.read_only(refusal.expression)
    message = refused.value.message
    assert refusal.getter in message, message
    reason = message.replace(refusal.getter, "").replace(refusal.expression, "").lower()
    assert any(word.lower() in reason for word in refusal.why), f"no reason given: {message}"


EFFECTFUL = [
    Effect("tracker.Touch", "GetterTruth.Tracker.get_Touch", ("static", "SideEffects")),
    Effect("tracker.Bump", "GetterTruth.Tracker.get_Bump", ("store", "field", "_hits", "writes")),
    Effect("tracker.Cached", "GetterTruth.Tracker.get_Cached", ("store", "field", "_cache", "writes", "static")),
    Effect("tracker.Logged", "GetterTruth.Tracker.get_Logged", ("Console", "I/O", "native", "WriteLine")),
    Effect("tracker.Locked", "GetterTruth.Tracker.get_Locked", ("lock", "Monitor")),
    Effect("NeverTouched.Answer", "GetterTruth.NeverTouched.get_Answer", ("static constructor", "cctor", "initializ")),  # unrun cctor
    # the same for a generic type's instantiation, whose statics are read through it
    Effect("genericStatics.Untouched", "GetterTruth.GenericStatics.get_Untouched", ("static constructor",)),
]


@pytest.mark.parametrize("effect", EFFECTFUL, ids=[e.expression for e in EFFECTFUL])
def test_a_getter_with_a_side_effect_is_refused_by_name_and_does_not_run(stop: GetterStop, effect: Effect) -> None:
    before = stop.counter()
    assert_refused_with_reason(stop, effect)
    assert stop.counter() == before, "the read-only evaluation ran the getter"
    stop.with_calls(effect.expression)
    assert stop.counter() == before + 1, "func-eval did not run the getter: the counter proves nothing"


THROWING = {
    "thrower.Broken": ("System.InvalidOperationException", "broken on purpose"),
    "thrower.NullLength": ("System.NullReferenceException", "Object reference not set to an instance of an object."),
    "thrower.Tenth": ("System.IndexOutOfRangeException", "Index was outside the bounds of the array."),
    "thrower.FifthOfList": ("System.ArgumentOutOfRangeException", "Index was out of range."),
    "thrower.MissingValue": ("System.InvalidOperationException", "Nullable object must have a value."),
    "thrower.Quotient": ("System.DivideByZeroException", "Attempted to divide by zero."),
    # a try/catch whose catch does not match lets the exception out
    "guarded.Unmatched": ("System.IndexOutOfRangeException", "Index was outside the bounds of the array."),
}

_THREW = re.compile(r"\b(System\.\w*Exception): (.*)$", re.DOTALL)


def thrown(stop: GetterStop, expression: str, allow_calls: bool) -> tuple[str, str]:
    """The exception type and message an evaluation answered with."""
    with pytest.raises(EvaluationError) as failed:
        stop.dbg.eval(expression, allow_calls=allow_calls)
    assert not isinstance(failed.value, EvaluationNeedsCallError), failed.value.message
    found = _THREW.search(failed.value.message)
    assert found, failed.value.message
    return found.group(1), found.group(2).strip()


@pytest.mark.parametrize("expression", list(THROWING))
def test_a_throwing_getter_answers_the_exception_func_eval_answers(stop: GetterStop, expression: str) -> None:
    exception_type, message_start = THROWING[expression]
    read_only = thrown(stop, expression, allow_calls=False)
    truth = thrown(stop, expression, allow_calls=True)
    assert truth[0] == exception_type and truth[1].startswith(message_start), truth
    assert read_only == truth


@pytest.mark.parametrize("expression", ["spinner.Forever", "spinner.VeryLong"])
def test_an_endless_getter_stops_at_the_instruction_budget_and_says_so(stop: GetterStop, expression: str) -> None:
    """Out of budget the answer says so (a refusal: func-eval might still finish it), naming the getter."""
    before = stop.counter()
    with pytest.raises(EvaluationError) as failed:
        stop.read_only(expression)
    message = failed.value.message
    assert "budget" in message and "instruction" in message.lower(), message
    assert f"GetterTruth.Spinner.get_{expression.split('.')[1]}" in message, message
    assert stop.counter() == before
    assert stop.read_only("person.First") == ('"Ada"', "string"), "the stop is still usable"
