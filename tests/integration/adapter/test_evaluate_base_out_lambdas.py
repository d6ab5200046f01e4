"""`base.` members, `out`/`ref` arguments and lambdas outside LINQ, evaluated by our adapter
in EvalSample (Dog.Describe for `base`, Program.Run for the rest) and compared with what
the debuggee holds: a base call of an overridden virtual method runs the base's own code,
as C# compiles it. Where the adapter cannot do what C# would (a lambda handed to a
debuggee method), it says so by name and runs nothing; with `noSideEffects` every call
into the debuggee is refused by name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import PausedAt, children, launched, ok

TARGET = "EvalSample"
NEEDS_CALL = "needs a call into the debuggee (func-eval): "


class Stop(PausedAt):
    def value(self, expression: str, **extra: Any) -> tuple[str, str]:
        body = ok(self.evaluate(expression, **extra))
        return body["result"], body["type"]

    def error(self, expression: str, **extra: Any) -> str:
        response = self.evaluate(expression, **extra)
        assert response["success"] is False, (expression, response.get("body"))
        return str(response["message"])


@pytest.fixture(scope="module")
def in_dog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stop]:
    truth = tmp_path_factory.mktemp("base") / "truth.json"
    with launched(TARGET, args=[str(truth)], markers=["base"]) as peer:
        yield Stop(peer)


@pytest.fixture(scope="module")
def in_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stop]:
    truth: Path = tmp_path_factory.mktemp("run") / "truth.json"
    with launched(TARGET, args=[str(truth)], markers=["eval"]) as peer:
        yield Stop(peer)


# --- base.Member -------------------------------------------------------------------------

def test_base_reads_the_base_class_field_a_derived_field_hides(in_dog: Stop) -> None:
    assert in_dog.value("legs") == ("3", "int")
    assert in_dog.value("base.legs") == ("4", "int")
    assert in_dog.value("base.legs", noSideEffects=True) == ("4", "int")


def test_base_auto_property_is_read_from_memory(in_dog: Stop) -> None:
    assert in_dog.value("base.Name", noSideEffects=True) == ('"Rex"', "string")


def test_base_getter_and_method_run_the_base_classs_own_code(in_dog: Stop) -> None:
    assert in_dog.value("Kind") == ('"dog"', "string")
    assert in_dog.value("base.Kind") == ('"animal"', "string")
    assert in_dog.value('base.Greet("you")') == ('"Rex greets you"', "string")
    assert in_dog.value("base.GetType().Name") == ('"Dog"', "string")  # not overridden: dispatch reaches Object's
    assert in_dog.value("base.Family()") == ('"animals"', "string")
    assert in_dog.value("base.Name.Length + base.legs") == ("7", "int")


def test_base_call_of_an_overridden_virtual_runs_the_base_code_not_the_override(in_dog: Stop) -> None:
    assert in_dog.value("Speak()") == ('"Rex barks"', "string")
    assert in_dog.value("base.Speak()") == ('"Rex makes a sound"', "string")
    assert in_dog.value("Sound") == ('"woof"', "string")
    assert in_dog.value("base.Sound") == ('"..."', "string")
    assert in_dog.value('base.Eat("bones", 250)') == ('"Rex eats 250 g of bones"', "string")
    assert in_dog.value('Eat("bones", 250)') == ('"dogs eat anything"', "string")
    # A void base method: its effect on the object is Animal's (+1), not Dog's (+10).
    before = int(in_dog.value("touches")[0])
    ok(in_dog.evaluate("base.Touch()"))
    assert in_dog.value("touches") == (str(before + 1), "int")
    ok(in_dog.evaluate("Touch()"))
    assert in_dog.value("touches") == (str(before + 11), "int")


def test_base_calls_answer_read_only_by_running_the_base_method_itself(in_dog: Stop) -> None:
    # The interpreter calls the base method without virtual dispatch (no delegate made in the debuggee).
    for expression in ("base.Kind", 'base.Greet("x")', "base.Speak()", "base.Sound"):
        assert in_dog.value(expression, noSideEffects=True) == in_dog.value(expression), expression
    assert in_dog.value("base.Sound", noSideEffects=True) == ('"..."', "string")
    message = in_dog.error("base.Touch()", noSideEffects=True)
    assert NEEDS_CALL + "EvalSample.Animal.Touch (stores into" in message, message


def test_base_of_a_missing_member_is_a_clear_error(in_dog: Stop, in_run: Stop) -> None:
    assert "'Bark' is not a field or property of the base class of EvalSample.Dog" in in_dog.error("base.Bark")
    assert "'Bark' is not a method of the base class of EvalSample.Dog" in in_dog.error("base.Bark()")
    assert "'instanceField' is not a field or property of the base class of EvalSample.Program" \
        in in_run.error("base.instanceField")
    assert in_run.value("base.ToString()") == ('"EvalSample.Program"', "string")
    assert in_dog.value("Age") == ("5", "int")
    assert in_dog.value("base.Age") == ("3", "int")  # Animal's override, called without dispatch


# --- out and ref arguments -----------------------------------------------------------------

def test_out_var_answers_the_result_and_reports_the_out_value(in_run: Stop) -> None:
    body = ok(in_run.evaluate('int.TryParse("12", out var n)', noSideEffects=True))
    assert (body["result"], body["type"]) == ("true", "bool")
    outs = children(in_run.peer, body["variablesReference"])
    assert (outs["n"]["value"], outs["n"]["type"]) == ("12", "int")
    assert in_run.value('int.TryParse("x", out var n) ? n : -1', noSideEffects=True) == ("-1", "int")
    assert in_run.value('int.TryParse("12", out var n) && n * 2 == 24', noSideEffects=True) == ("true", "bool")
    assert in_run.value('int.TryParse("12", out _)', noSideEffects=True) == ("true", "bool")
    assert in_run.value('decimal.TryParse("2.50", out var d) ? d : 0m', noSideEffects=True) == ("2.50", "decimal")
    # An out inside a lambda holds one value per element: usable there, not reported as the result's.
    body = ok(in_run.evaluate("orders.Count(o => int.TryParse(o.Id.ToString(), out var id) && id > 2)", noSideEffects=True))
    assert (body["result"], body.get("variablesReference", 0)) == ("3", 0)
    assert in_run.value('orders.Count(o => o.Customer is Customer c && c.Name == "Bob")', noSideEffects=True) == ("2", "int")


def test_out_arguments_of_a_debuggee_method_come_back_from_the_debuggee(in_run: Stop) -> None:
    body = ok(in_run.evaluate('prices.TryGetValue("pear", out var p)'))
    assert body["result"] == "true"
    outs = children(in_run.peer, body["variablesReference"])
    assert (outs["p"]["value"], outs["p"]["type"]) == ("2.25", "decimal")
    assert in_run.value('prices.TryGetValue("plum", out var p) ? p : -1m') == ("-1", "decimal")
    assert in_run.value('prices.TryGetValue("apple", out var p) ? p * 2 : -1m') == ("3.0", "decimal")
    assert in_run.value("ids.TryGetValue(8, out var found) ? found : 0") == ("8", "int")
    body = ok(in_run.evaluate('new { found = prices.TryGetValue("apple", out var p), p }'))
    listed = ok(in_run.peer.request("variables", {"variablesReference": body["variablesReference"]}))["variables"]
    assert [(v["name"], v["value"]) for v in listed] == [("found", "true"), ("p", "1.5")]  # p once


def test_several_outs_of_a_class_and_a_number_and_a_ref_round_trip(in_run: Stop) -> None:
    body = ok(in_run.evaluate('Config.TrySplit("hello", out var head, out var length)'))
    assert body["result"] == "true"
    outs = children(in_run.peer, body["variablesReference"])
    assert {name: (v["value"], v["type"]) for name, v in outs.items()} == \
        {"head": ('"h"', "string"), "length": ("5", "int")}
    assert in_run.value('Config.TrySplit("", out var head, out _) ? 1 : head == null ? 2 : 3') == ("2", "int")
    # ref: the value goes in, the callee's new value comes back (Bump adds 5, answers twice it).
    assert in_run.value('int.TryParse("3", out var n) ? Config.Bump(ref n) * 100 + n : 0') == ("1608", "int")
    assert NEEDS_CALL + "EvalSample.Config.Bump;" in in_run.error(
        'int.TryParse("3", out var n) ? Config.Bump(ref n) : 0', noSideEffects=True)


def test_out_arguments_are_refused_where_they_would_write_the_program_or_run_code(in_run: Stop) -> None:
    message = in_run.error('prices.TryGetValue("pear", out var p)', noSideEffects=True)
    assert NEEDS_CALL + "System.Collections.Generic.Dictionary.TryGetValue;" in message, message
    message = in_run.error('int.TryParse("5", out count)')
    assert "'out count' would write a variable of the program" in message, message
    assert in_run.value("count") == ("42", "int")


# --- lambdas outside LINQ ------------------------------------------------------------------

def test_a_lambda_invoked_directly_runs_here(in_run: Stop) -> None:
    assert in_run.value("((Func<int, int>)(x => x * 2))(21)", noSideEffects=True) == ("42", "int")
    assert in_run.value("((Func<int, long>)(x => x + 1))(count)", noSideEffects=True) == ("43", "long")
    assert in_run.value("((Func<int, int, int>)((a, b) => a * b))(6, 7)", noSideEffects=True) == ("42", "int")


def test_array_and_list_predicate_methods_run_the_lambda_here(in_run: Stop) -> None:
    assert in_run.value("Array.Find(numbers, x => x > 5)", noSideEffects=True) == ("8", "int")
    assert in_run.value("Array.FindIndex(numbers, x => x == 8)", noSideEffects=True) == ("2", "int")
    assert in_run.value("Array.Exists(numbers, x => x == 1)", noSideEffects=True) == ("true", "bool")
    assert in_run.value("Array.TrueForAll(numbers, x => x > 1)", noSideEffects=True) == ("false", "bool")
    assert in_run.value("Array.FindAll(numbers, x => x > 3).Length", noSideEffects=True) == ("2", "int")
    assert in_run.value("orders.Find(o => o.Total > 100).Id", noSideEffects=True) == ("2", "int")
    assert in_run.value("orders.ConvertAll(o => o.Id).Sum()", noSideEffects=True) == ("15", "int")
    ok(in_run.evaluate("orders.ForEach(o => o.Id)", noSideEffects=True))
    message = in_run.error("orders.ForEach(o => o.Counted)", noSideEffects=True)
    assert NEEDS_CALL + "EvalSample.Order.get_Counted (stores into static field EvalSample.Order.Reads)" in message, message


def test_a_lambda_handed_to_a_debuggee_method_is_refused_by_name(in_run: Stop) -> None:
    message = in_run.error("orders.RemoveAll(o => o.Id > 2)")
    assert "List.RemoveAll changes the list" in message, message
    assert in_run.value("orders.Count") == ("5", "int")
    message = in_run.error("Dog.Apply(x => x + 1, 2)")
    assert "passing a lambda to EvalSample.Dog.Apply needs a delegate made in the debuggee" in message, message


def test_a_delegate_held_by_a_local_or_property_is_invoked_in_the_debuggee(in_run: Stop, in_dog: Stop) -> None:
    assert in_run.value("twice(21)") == ("42", "int")
    # read-only: the delegate's method (the lambda) is read through ICorDebug and interpreted
    assert in_run.value("twice(21)", noSideEffects=True) == ("42", "int")
    # Dog's statics are not initialized yet at Program.Run's stop: null, said so.
    assert "'Doubler' is null, so there is no delegate to invoke" in in_run.error("Dog.Doubler(21)")
    assert in_dog.value("Doubler(21)") == ("42", "int")
    assert in_dog.value("Dog.Doubler(4) + 1") == ("9", "int")
