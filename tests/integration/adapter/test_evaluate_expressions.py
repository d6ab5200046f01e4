"""C# expressions evaluated by our adapter at a breakpoint in EvalSample, compared exactly
with the values the debuggee holds (and, where it computed them itself, with its truth
JSON): names, members, indexers, literals, operators with C#'s promotions, conditionals,
casts, typeof, enums, nullables, statics, LINQ with lambdas, and the errors."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from support.adapter_session import children, launched, ok, top_frame
from support.dap_wire import WirePeer
from support.targets import read_truth, target_dll

TARGET = "EvalSample"

Session = tuple[WirePeer, int, dict[str, Any]]


@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    truth_file: Path = tmp_path_factory.mktemp("eval") / "truth.json"
    with launched(TARGET, args=[str(truth_file)], markers=["eval"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        yield peer, top_frame(peer, thread)["id"], read_truth(truth_file)


def evaluate(session: Session, expression: str, **extra: Any) -> dict[str, Any]:
    peer, frame, _ = session
    return peer.request("evaluate", {"expression": expression, "frameId": frame, "context": "repl", **extra}, timeout=30)


def result(session: Session, expression: str, **extra: Any) -> tuple[str, str]:
    body = ok(evaluate(session, expression, **extra))
    return body["result"], body["type"]


EXACT = [
    # names, members, indexers
    ("count", "42", "int"), ("text", '"Hello"', "string"), ("instanceField", "11", "int"),
    ("this.instanceField", "11", "int"), ("Title", '"prog"', "string"), ("counter", "3", "int"),
    ("Program.counter", "3", "int"), ("EvalSample.Config.MaxItems", "53", "int"), ("Config.Name", '"eval"', "string"),
    ("Config.Greeting", '"hi"', "string"), ("orders.Count", "5", "int"), ("orders[1].Total", "150", "decimal"),
    ("orders[1].Customer.Name", '"Bob"', "string"), ("array[3].Id", "4", "int"), ("grid[1, 2]", "6", "int"),
    ("numbers[2]", "8", "int"), ("numbers.Length", "4", "int"), ("text[1]", "'e'", "char"), ("text.Length", "5", "int"),
    ('prices["pear"]', "2.25", "decimal"), ("orders[1].Tags[1]", '"express"', "string"), ("orders[1].Tags.Count", "2", "int"),
    ("point.X + point.Y", "7", "int"),
    # literals of every kind
    ("0x1F", "31", "int"), ("0b101", "5", "int"), ("1_000_000L", "1000000", "long"), ("7u", "7", "uint"),
    ("7UL", "7", "ulong"), ("3.5f", "3.5", "float"), ("2.5m", "2.5", "decimal"), ("1e3", "1000", "double"),
    ("'\\n'", "'\\n'", "char"), ('"a\\tb"', '"a\\tb"', "string"), ('@"c:\\x"', '"c:\\\\x"', "string"),
    ('$"n={count}"', '"n=42"', "string"), ("true", "true", "bool"), ("null", "null", "object"),
    # arithmetic with C#'s promotions
    ("count + 1", "43", "int"), ("count / 5", "8", "int"), ("count % 5", "2", "int"), ("count * ratio + b", "305", "double"),
    ("u + count", "4000000042", "long"), ("big >> 3", "137438953472", "long"), ("letter + 1", "121", "int"),
    ("b + b", "400", "int"), ("sh * 2", "-10", "int"), ("small * 2", "1", "float"), ("(double)count / 8", "5.25", "double"),
    ("-count", "-42", "int"), ("~count", "-43", "int"), ("count & 0xF", "10", "int"), ("1 << 4 | 1", "17", "int"),
    ("orders[1].Total * 2", "300", "decimal"),
    # comparisons, logic, strings, conditionals
    ("count % 5 == 2", "true", "bool"), ("count > 40 && flag", "true", "bool"), ("count < 40 || !flag", "false", "bool"),
    ("text == \"Hello\"", "true", "bool"), ("text != \"hello\"", "true", "bool"), ("text + count + flag", '"Hello42True"', "string"),
    ("text + nothing", '"Hello"', "string"), ('flag ? "yes" : "no"', '"yes"', "string"),
    ("text.ToUpper()", '"HELLO"', "string"), ("text.Substring(1, 3)", '"ell"', "string"), ('text.Contains("ell")', "true", "bool"),
    # null handling
    ("nothing is null", "true", "bool"), ("text is not null", "true", "bool"), ('nothing ?? "dflt"', '"dflt"', "string"),
    ('text ?? "dflt"', '"Hello"', "string"), ("nothing?.Length", "null", "object"), ("text?.Length", "5", "int"),
    ("orders[2].Customer?.Name", "null", "object"), ("orders[0].Customer?.Name", '"Alice"', "string"),
    ("maybe", "7", "int?"), ("maybe + 1", "8", "int"), ("maybe.HasValue", "true", "bool"), ("maybe.Value", "7", "int"),
    ("none", "null", "int?"), ("none ?? -1", "-1", "int"), ("none.HasValue", "false", "bool"), ("none is null", "true", "bool"),
    # casts, type tests, typeof, sizeof, default
    ("(long)count", "42", "long"), ("(byte)300", "44", "byte"), ("(int)ratio", "2", "int"), ("(char)66", "'B'", "char"),
    ("(int)-2.7", "-2", "int"), ("boxed is Order", "true", "bool"), ("boxed is Customer", "false", "bool"),
    ("((Order)boxed).Id", "1", "int"), ("boxed as Customer", "null", "object"), ("(Order)boxed", "{EvalSample.Order}", "EvalSample.Order"),
    ("typeof(int)", "{System.Int32}", "System.RuntimeType"), ("sizeof(long)", "8", "int"), ("default(int)", "0", "int"),
    # enums
    ("status", "Shipped", "EvalSample.Status"), ("status == Status.Shipped", "true", "bool"),
    ("status == EvalSample.Status.Pending", "false", "bool"), ("(int)status", "1", "int"), ("(Status)2", "Cancelled", "EvalSample.Status"),
    ("access", "Read | Write", "EvalSample.Access"), ("access | Access.Exec", "Read | Write | Exec", "EvalSample.Access"),
    ("(Access)5", "Read | Exec", "EvalSample.Access"), ("status.ToString()", '"Shipped"', "string"),
    # statics of the framework computed here
    ("int.MaxValue", "2147483647", "int"), ("long.MinValue", "-9223372036854775808", "long"), ("Math.Max(3, count)", "42", "int"),
    ("Math.Abs(sh)", "5", "short"), ("string.IsNullOrEmpty(nothing)", "true", "bool"),
    ('string.Join("-", new[] { "a", "b" })', '"a-b"', "string"), ("new[] { 1, 2, 42 }.Contains(count)", "true", "bool"),
    ('new[] { "a", "b" }[1]', '"b"', "string"), ("nameof(Config.MaxItems)", '"MaxItems"', "string"),
    ("Enumerable.Count(orders, o => o.Total > 100)", "2", "int"), ("System.Linq.Enumerable.Sum(numbers)", "17", "int"),
    # LINQ with lambdas
    ("orders.Where(o => o.Total > 100).Count()", "2", "int"), ("orders.Count(o => o.Status == Status.Shipped)", "2", "int"),
    ("orders.Any(o => o.Customer == null)", "true", "bool"), ("orders.All(o => o.Id > 0)", "true", "bool"),
    ("orders.Any()", "true", "bool"), ("orders.First(o => o.Total < 60).Id", "1", "int"),
    ("orders.FirstOrDefault(o => o.Total > 1000)", "null", "object"), ("orders.Last().Id", "5", "int"),
    ("orders.Sum(o => o.Total)", "619.5", "decimal"), ("orders.Min(o => o.Total)", "20", "decimal"), ("orders.Max(o => o.Id)", "5", "int"),
    ("orders.OrderBy(o => o.Total).First().Id", "5", "int"), ("orders.Skip(1).Take(2).Count()", "2", "int"),
    ("numbers.Sum()", "17", "int"), ("numbers.Max()", "8", "int"), ("numbers.Select((n, i) => n * i).Sum()", "22", "int"),
    ("numbers.Contains(4)", "false", "bool"), ("ids.Contains(8)", "true", "bool"), ("ids.Sum()", "24", "int"),
    ("prices.Sum(p => p.Value)", "3.75", "decimal"), ('prices.First().Key', '"apple"', "string"),
    ('orders[1].Tags.Contains("gift")', "true", "bool"),
    ("orders.Where(o => o.Tags.Count > 0).Select(o => o.Tags.Count).First()", "2", "int"),
    ("orders.Where(o => o.Customer != null && o.Customer.Name == \"Alice\").Sum(o => o.Weight)", "11.5", "double"),
    ("orders.OfType<Order>().Count()", "5", "int"), ("orders.Select(o => o.Customer).OfType<Customer>().Count()", "4", "int"),
    ("orders.Cast<object>().Count()", "5", "int"), ("numbers.OfType<int>().Sum()", "17", "int"),
    # List's predicate methods, GroupBy (keys in first-seen order), SelectMany, anonymous objects
    ("orders.Find(o => o.Id == 3).Total", "99.5", "decimal"), ("orders.Find(o => o.Id == 99)", "null", "object"),
    ("orders.FindIndex(o => o.Total > 100)", "1", "int"), ("orders.FindLastIndex(o => o.Total > 100)", "3", "int"),
    ("orders.Exists(o => o.Customer == null)", "true", "bool"), ("orders.TrueForAll(o => o.Id > 0)", "true", "bool"),
    ("orders.FindAll(o => o.Status == Status.Pending).Count", "2", "int"), ("orders.ConvertAll(o => o.Id).Sum()", "15", "int"),
    ("orders.GroupBy(o => o.Status).Count()", "3", "int"), ("orders.GroupBy(o => o.Status).First().Key", "Pending", "EvalSample.Status"),
    ("orders.GroupBy(o => o.Status).Select(g => g.Count()).Max()", "2", "int"),
    ("orders.GroupBy(o => o.Customer?.Name).Select(g => new { Name = g.Key, N = g.Count() }).First()",
     '{ Name = "Alice", N = 2 }', "anonymous type"),
    ("new { count, text }.text", '"Hello"', "string"), ("orders.SelectMany(o => o.Tags).Count()", "2", "int"),
    ("orders.SelectMany(o => o.Tags).First()", '"gift"', "string"),
    # interpolation with alignment and format, as C# formats (invariant culture)
    ('$"{count:X}"', '"2A"', "string"), ('$"[{count,5}][{text,-7}]"', '"[   42][Hello  ]"', "string"),
    ('$"{ratio:F3} {big:N0}"', '"2.500 1,099,511,627,776"', "string"), ('$"{orders[1].Total:F1}"', '"150.0"', "string"),
    # typeof names as the runtime spells them
    ("typeof(Order).FullName", '"EvalSample.Order"', "string"), ("typeof(Order).Name", '"Order"', "string"),
    ("typeof(Order).Namespace", '"EvalSample"', "string"), ("typeof(int).FullName", '"System.Int32"', "string"),
    # patterns that declare names and match members
    ("boxed is Order o && o.Id == 1", "true", "bool"), ("boxed is Order { Id: 1, Customer.Name: \"Alice\" }", "true", "bool"),
    ("boxed is Order { Total: > 100 }", "false", "bool"),
    ('orders[1] is { Customer: { Name: "Bob" } } x ? x.Id : -1', "2", "int"),
]


@pytest.mark.parametrize(("expression", "value", "type_name"), EXACT)
def test_expression_has_its_exact_value_and_type(stopped: Session, expression: str, value: str, type_name: str) -> None:
    assert result(stopped, expression) == (value, type_name)


@pytest.mark.parametrize(("expression", "truth_key"), [
    ("orders.Where(o => o.Total > 100).Sum(o => o.Total)", "bigTotal"), ("orders.Average(o => o.Weight)", "averageWeight"),
    ("count / 5", "intDivision"), ("count * ratio + b", "mixed"), ("u + count", "uintPlusInt"), ("big >> 3", "shifted"),
    ("letter + 1", "charMath"),
])
def test_numbers_match_what_the_debuggee_computed(stopped: Session, expression: str, truth_key: str) -> None:
    value, _ = result(stopped, expression)
    assert Decimal(value) == Decimal(str(stopped[2][truth_key]))


def test_string_concatenation_matches_the_debuggee(stopped: Session) -> None:
    assert result(stopped, "text + count + flag")[0] == '"' + stopped[2]["concat"] + '"'


def test_linq_sequences_list_their_items_as_children(stopped: Session) -> None:
    peer = stopped[0]
    body = ok(evaluate(stopped, "orders.OrderByDescending(o => o.Total).Select(o => o.Id)"))
    assert (body["result"], body["type"]) == ("Count = 5", "System.Collections.Generic.IEnumerable<int>")
    items = children(peer, body["variablesReference"])
    assert ",".join(v["value"] for v in items.values()) == stopped[2]["names"]
    objects = ok(evaluate(stopped, "orders.Where(o => o.Status == Status.Pending).ToList()"))
    first = children(peer, objects["variablesReference"])["[0]"]
    assert first["value"] == "{EvalSample.Order}" and "memoryReference" in first
    assert {n: f["value"] for n, f in children(peer, first["variablesReference"]).items()}["Id"] == "1"


def test_groups_list_their_key_and_items_as_children(stopped: Session) -> None:
    peer = stopped[0]
    body = ok(evaluate(stopped, "orders.GroupBy(o => o.Status)"))
    groups = children(peer, body["variablesReference"])
    assert [g["value"] for g in groups.values()] == [
        "{Key = Pending, Count = 2}", "{Key = Shipped, Count = 2}", "{Key = Cancelled, Count = 1}"]
    shipped = children(peer, groups["[1]"]["variablesReference"])
    assert shipped["Key"]["value"] == "Shipped"
    ids = [children(peer, shipped[f"[{i}]"]["variablesReference"])["Id"]["value"] for i in range(2)]
    assert ids == ["2", "4"]


def test_objects_list_their_static_members_last(stopped: Session) -> None:
    peer = stopped[0]
    this = children(peer, ok(evaluate(stopped, "this"))["variablesReference"])
    assert list(this)[-1] == "Static members"
    statics = children(peer, this["Static members"]["variablesReference"])
    assert statics["counter"]["value"] == "3" and statics["counter"]["evaluateName"] == "EvalSample.Program.counter"
    order = children(peer, ok(evaluate(stopped, "orders[1]"))["variablesReference"])
    assert "Reads" in children(peer, order["Static members"]["variablesReference"])


def test_objects_keep_children_address_and_evaluate_names_round_trip(stopped: Session) -> None:
    peer = stopped[0]
    body = ok(evaluate(stopped, "orders[1]", context="watch"))
    assert body["type"] == "EvalSample.Order" and body["memoryReference"].startswith("0x")
    fields = children(peer, body["variablesReference"])
    for name in ("Id", "Total", "Customer"):
        again = ok(evaluate(stopped, fields[name]["evaluateName"], context="hover"))
        assert again["result"] == fields[name]["value"], name


def test_hex_format_applies_to_computed_and_read_integers(stopped: Session) -> None:
    assert result(stopped, "count", format={"hex": True})[0] == "0x2A"
    assert result(stopped, "count + 1", format={"hex": True})[0] == "0x2B"
    assert result(stopped, "ratio * 2", format={"hex": True})[0] == "5"


@pytest.mark.parametrize(("expression", "message"), [
    ("nope", "not a local"), ("numbers[9]", "out of range"), ("orders[2].Customer.Name", "NullReferenceException"),
    ('prices["kiwi"]', "KeyNotFoundException"), ("count / 0", "DivideByZeroException"), ("count +", "unsupported"),
    ("(Customer)boxed", "InvalidCastException"), ("orders.First(o => o.Total > 1000)", "no matching element"),
    ("count && flag", "not a bool"), ("count = 2.5", "cannot implicitly convert double 2.5 to int"),
    ("orders.Count = 2", "the property has no setter"), ("1 = 2", "only variables, fields, properties and elements can be assigned"),
    ("orders[0].Customer = orders[1]", "cannot assign EvalSample.Order to 'orders[0].Customer' (EvalSample.Customer)"),
    ("b = 256", "cannot implicitly convert int 256 to byte"), ("flag = 1", "cannot assign int to 'flag' (bool)"),
    ("new Nope()", "'Nope' is not a type of the loaded modules"), ('Config.Echo<int>("x")', "has no generic method 'Echo'"), ("new Customer(1)", "has no constructor taking these 1 argument(s)"),
    ('orders[1].Tags.IndexOf(5)', "not a method of System.Collections.Generic.List<string> taking 1 argument"), ("orders[0].Missing", "not a field"), ("count ? 1 : 2", "not a bool"),
])
def test_errors_say_what_went_wrong(stopped: Session, expression: str, message: str) -> None:
    response = evaluate(stopped, expression)
    assert response["success"] is False, response
    assert message in response["message"]


CALLS = [
    ("orders[0].Label", '"#1:Pending"', "string"), ("orders[0].ToString()", '"Order 1"', "string"),
    ("orders[0].Add(1, 2)", "4", "int"), ('orders[1].Describe("n")', '"n2"', "string"), ("point.Sum", "7", "int"),
    ("orders[0].IsBig()", "false", "bool"), ("orders[3].IsBig()", "true", "bool"), ('prices.ContainsKey("apple")', "true", "bool"),
    ("Config.Twice(count)", "84", "int"), ("EvalSample.Config.Twice(21) + 1", "43", "int"),
    ('orders[0].Label + "!" + orders[1].Label', '"#1:Pending!#2:Shipped"', "string"), ('$"{orders[0]}"', '"Order 1"', "string"),
    ("orders[0].Id + orders[0].Add(1, 2)", "5", "int"), ("orders.Where(o => o.IsBig()).Count()", "2", "int"),
    ('orders.Where(o => o.Label.Contains("Shipped")).Select(o => o.Id).Sum()', "6", "int"),
    ("numbers.Where(n => Config.Twice(n) > 9).Sum()", "13", "int"),
    ("cells[2, 3]", "23", "int"), ('cells["b2"]', '"cell b2"', "string"), ("Config.Echo(count)", "42", "int"),
    ("Config.Echo(text)", '"Hello"', "string"), ("Config.FirstOf(orders).Id", "1", "int"),
    ('string.Join(",", numbers)', '"5,3,8,1"', "string"), ('orders[1].Tags.IndexOf("express")', "1", "int"),
    # generic methods with their type arguments written out
    ("Config.Echo<long>(5000000000)", "5000000000", "long"), ("Config.Echo<double>(2)", "2", "double"),
    ("Config.Echo<Order>(orders[1]).Id", "2", "int"), ("Enumerable.Empty<int>().Count()", "0", "int"),
    ("Enumerable.Repeat<string>(\"a\", 3).Count()", "3", "int"),
    # any IEnumerable: the debuggee copies it (Enumerable.Cast<object>, ToArray), LINQ runs here
    ("prices.Values.Sum()", "3.75", "decimal"), ('prices.Keys.First()', '"apple"', "string"),
    ("prices.Values.Where(v => v > 2).Count()", "1", "int"), ("Enumerable.Range(0, 10).Sum()", "45", "int"),
    ("Enumerable.Range(0, 10).Where(i => i % 2 == 0).Count()", "5", "int"),
    # objects made in the debuggee by their constructors, initializers run as C# runs them
    ("new Customer().Name", '""', "string"), ('new Customer { Name = "Z", Email = "z@x" }.Email', '"z@x"', "string"),
    ("new Order { Id = 9, Total = 5m }.Label", '"#9:Pending"', "string"), ("new List<int>()", "Count = 0", "System.Collections.Generic.List<int>"),
    ("new List<int> { 1, 2, 3 }.Sum()", "6", "int"), ('new List<string> { "a", text }[1]', '"Hello"', "string"),
    ('new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }.Count', "2", "int"),
    ('new Dictionary<string, int> { ["a"] = 1, ["b"] = 5 }["b"]', "5", "int"), ("new HashSet<int> { 1, 1, 2 }.Count", "2", "int"),
    ("new Point(1, 2).Sum", "3", "int"), ("new DateTime(2020, 1, 2).Year", "2020", "int"), ("new string('a', 3)", '"aaa"', "string"),
    ('new System.Text.StringBuilder("ab").Append("c").ToString()', '"abc"', "string"), ("orders.Contains(new Order())", "false", "bool"),
    ("new int[3].Length", "3", "int"),
    # types of the SDK's implicit usings
    ('Path.GetFileName("/a/b.txt")', '"b.txt"', "string"), ("Thread.CurrentThread.IsAlive", "true", "bool"),
]


@pytest.mark.parametrize(("expression", "value", "type_name"), CALLS)
def test_getters_and_methods_run_in_the_debuggee(stopped: Session, expression: str, value: str, type_name: str) -> None:
    assert result(stopped, expression) == (value, type_name)


def test_decimal_arguments_are_made_exactly_in_the_debuggee(stopped: Session) -> None:
    value, type_name = result(stopped, "orders[1].WithTax(0.1m)")
    assert type_name == "decimal" and Decimal(value) == Decimal(str(stopped[2]["withTax"]))
    assert result(stopped, "orders[1].WithTax(2)") == ("450", "decimal")


def test_linq_results_of_calls_stay_readable_after_later_calls(stopped: Session) -> None:
    body = ok(evaluate(stopped, 'orders.Select(o => o.Describe("x"))'))
    items = children(stopped[0], body["variablesReference"])
    assert [v["value"] for v in items.values()] == ['"x1"', '"x2"', '"x3"', '"x4"', '"x5"']
    shipped = ok(evaluate(stopped, 'orders.Where(o => o.Label.Contains("Shipped")).ToList()'))
    first = children(stopped[0], shipped["variablesReference"])["[0]"]
    assert {n: f["value"] for n, f in children(stopped[0], first["variablesReference"]).items()}["Id"] == "2"


def test_linq_over_thousands_of_objects_is_exact(stopped: Session) -> None:
    assert result(stopped, "manyOrders.Count(o => o.Total > 250)") == (str(sum(1 for i in range(20_000) if i % 500 > 250)), "int")
    assert result(stopped, "manyOrders.Sum(o => o.Id)") == (str(sum(range(20_000))), "int")


def test_linq_over_150_thousand_ints_covers_every_element_with_dotnets_arithmetic(stopped: Session) -> None:
    many = range(150_000)
    assert result(stopped, "many.Count(x => x % 2 == 0)") == (str(sum(1 for x in many if x % 2 == 0)), "int")
    assert result(stopped, "many.Select(x => (long)x).Sum()") == (str(sum(many)), "long")
    assert result(stopped, "many.Average()") == (str(sum(many) / len(many)), "double")
    assert result(stopped, "many.Max()") == ("149999", "int")
    overflow = evaluate(stopped, "many.Sum()")  # Enumerable.Sum over ints is checked
    assert overflow["success"] is False and "(OverflowException)" in overflow["message"]


def test_linq_stops_at_its_item_budget_and_says_so(stopped: Session) -> None:
    response = evaluate(stopped, "many.Count(x => x % 2 == 0)", itemBudget=100_000)
    assert response["success"] is False
    assert "stopped at element 100000 of the source of 'many.Count(x => x % 2 == 0)' (0 elements read before it, 150000 in it): the item budget of 100000 is used up" \
        in response["message"]
    assert result(stopped, "many.Take(3).Sum()", itemBudget=100_000) == ("3", "int")
    slow = evaluate(stopped, "manyOrders.Count(o => o.Label.Length > 0)", timeBudgetMs=300)
    assert slow["success"] is False and "the time budget of 0.3 s is used up" in slow["message"]
    assert "of the source of 'manyOrders.Count(o => o.Label.Length > 0)'" in slow["message"]


def test_without_a_frame_id_evaluate_uses_the_top_frame_of_the_stopped_thread(stopped: Session) -> None:
    peer = stopped[0]
    body = ok(peer.request("evaluate", {"expression": "count * 2", "context": "watch"}, timeout=30))
    assert (body["result"], body["type"]) == ("84", "int")


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Session]:
    with launched(TARGET, args=[str(tmp_path / "truth.json")], markers=["eval"]) as peer:
        thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]
        yield peer, top_frame(peer, thread)["id"], {}


def test_a_getter_runs_only_when_the_expression_names_it(fresh: Session) -> None:
    for expression in ("orders[0].Id", "orders[0].Total > 10", "orders.Count(o => o.Total > 0)", "orders[0]"):
        ok(evaluate(fresh, expression))
    assert result(fresh, "Order.Reads") == ("0", "int")
    assert result(fresh, "orders[0].Counted") == ("1", "int")
    assert result(fresh, "orders.Sum(o => o.Counted)") == ("20", "int")
    assert result(fresh, "Order.Reads") == ("6", "int")


def test_a_throwing_getter_reports_the_exception_type_and_message(fresh: Session) -> None:
    response = evaluate(fresh, "orders[0].Throws")
    assert response["success"] is False
    assert "System.InvalidOperationException: no label here" in response["message"]
    assert result(fresh, "orders[0].Label") == ('"#1:Pending"', "string")


def test_a_getter_that_never_returns_is_aborted_and_the_debuggee_stays_usable(fresh: Session) -> None:
    response = evaluate(fresh, "orders[0].Forever")
    assert response["success"] is False and "did not finish within 5 s and was aborted" in response["message"]
    assert result(fresh, "count + orders[1].Add(0, 0)") == ("44", "int")
    peer = fresh[0]
    thread = peer.request("threads")["body"]["threads"][0]["id"]
    ok(peer.request("continue", {"threadId": thread}))
    assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0


def test_the_exception_in_flight_is_named_dollar_exception() -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll("InspectSample")), "args": ["caught"]}, timeout=30))
        ok(peer.request("setExceptionBreakpoints", {"filters": ["all"]}))
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        session = (peer, top_frame(peer, stopped["threadId"])["id"], {})
        assert result(session, "$exception._message") == ('"caught on purpose"', "string")
        assert result(session, "$exception.Message.Length") == ("17", "int")
        assert result(session, "$exception is InvalidOperationException") == ("true", "bool")
        assert result(session, "$exception")[1] == "System.InvalidOperationException"
    finally:
        peer.close()
