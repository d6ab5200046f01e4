// LINQ operators as agents write them, run in the adapter: the source is enumerated here
// (Sequences), each lambda compiled once and run here per element, within the item and time
// budgets of the context. Lazy where LINQ is (Any/First stop at the first match).
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Linq;

public static class LinqOperators
{
    private static readonly HashSet<string> Operators = new(StringComparer.Ordinal)
    {
        "Where", "Select", "Any", "All", "Count", "LongCount", "First", "FirstOrDefault", "Last", "LastOrDefault",
        "Single", "SingleOrDefault", "Sum", "Min", "Max", "Average", "OrderBy", "OrderByDescending", "Take", "Skip",
        "ToList", "ToArray", "AsEnumerable", "Distinct", "Reverse", "Contains", "ElementAt", "TakeWhile", "SkipWhile",
        "OfType", "Cast", "GroupBy", "SelectMany",
    };

    /// <summary>List&lt;T&gt;'s own predicate methods, run here as their LINQ twins (and Array's static twins
    /// of them, DelegateCalls.IsArrayPredicate).</summary>
    internal static readonly HashSet<string> ListPredicates = new(StringComparer.Ordinal)
    {
        "Find", "FindLast", "FindIndex", "FindLastIndex", "Exists", "TrueForAll", "FindAll", "ConvertAll", "ForEach",
    };

    /// <summary>Whether `receiver.name(arguments)` is a LINQ call the adapter runs itself.</summary>
    public static bool Handles(string name, object? receiver, SeparatedSyntaxList<ArgumentSyntax> arguments)
    {
        bool lambda = arguments.Any(a => a.Expression is LambdaExpressionSyntax);
        object? local = EvalValues.Local(receiver);
        if (ListPredicates.Contains(name) && lambda)
            return local is SequenceValue || (local is RemoteValue list && Members.ClassName(list.Value) == "System.Collections.Generic.List`1");
        if (!Operators.Contains(name)) return false;
        if (local is SequenceValue or GroupingValue or MadeValue { SequenceOf: not null }) return true;
        if (local is string) return lambda;
        if (local is not RemoteValue remote) return false;
        if (Sequences.ReadsInternals(remote)) return true;  // on these, LINQ names always mean LINQ
        // Any other enumerable: its own method of that name wins, as in C#, unless a lambda
        // says LINQ is meant (internal iterators have virtual Where/Select of their own).
        return Sequences.IsEnumerable(remote) && (lambda || !Invocation.HasMethod(remote, name));
    }

    public static object? Apply(Interpreter interpreter, object? receiver, string name, SeparatedSyntaxList<ArgumentSyntax> arguments,
        IReadOnlyList<TypeSyntax> typeArguments, string text)
    {
        EvalContext context = interpreter.Context;
        if (arguments.Count == 0 && name is "Count" && EvalValues.Local(receiver) is SequenceValue computed) return computed.Items.Count;
        if (TypedLinq.TryApply(interpreter, receiver, name, arguments, text, (values, op) => Aggregate(values, op, text)) is { } typed)
            return typed;
        string elementType = Sequences.ElementTypeName(receiver);
        IEnumerable<object?> items = Sequences.Enumerate(interpreter, receiver, text);
        if (name is "OfType" or "Cast")
            return OfType(items, typeArguments, name == "Cast", context, text);
        Func<object?, int, object?>? lambda = arguments.Count > 0 && arguments[0].Expression is LambdaExpressionSyntax l
            ? Lambda(interpreter, l) : null;
        object? Argument(int i) => EvalValues.Local(interpreter.Eval(arguments[i].Expression));
        string lambdaText = arguments.Count > 0 ? arguments[0].ToString() : "";  // once: Roslyn builds it on every call
        bool Test(object? item, int index) => Expressions.Operators.Truth(EvalValues.Local(lambda!(item, index)), lambdaText);
        IEnumerable<object?> Filtered() => lambda is null ? items : items.Where((item, i) => Test(item, i));
        IEnumerable<object?> Projected() => lambda is null ? items.Select(EvalValues.Local) : items.Select((item, i) => EvalValues.Local(lambda(item, i)));

        return name switch
        {
            "Find" => Pick(Filtered(), true, true, text, name),
            "FindLast" => Pick(Filtered().Reverse(), true, true, text, name),
            "FindIndex" => items.Select((item, i) => (item, i)).FirstOrDefault(p => Test(p.item, p.i), (null, -1)).Item2,
            "FindLastIndex" => items.Select((item, i) => (item, i)).LastOrDefault(p => Test(p.item, p.i), (null, -1)).Item2,
            "Exists" => Filtered().Any(),
            "ForEach" => ForEach(items, lambda ?? throw Needs(name, text)),
            "TrueForAll" => items.Select((item, i) => (item, i)).All(p => Test(p.item, p.i)),
            "FindAll" => Sequence(items.Where((item, i) => Test(item, i)), elementType),
            "Select" or "ConvertAll" => Select(items, lambda is null ? throw Needs(name, text) : (item, i) => interpreter.Stable(lambda(item, i))),
            "SelectMany" => SelectMany(interpreter, items, lambda ?? throw Needs(name, text), text),
            "GroupBy" => GroupBy(items, lambda ?? throw Needs(name, text), elementType),
            "Where" => Sequence(items.Where((item, i) => Test(item, i)), elementType),
            "Any" => Filtered().Any(),
            "All" => items.Select((item, i) => (item, i)).All(p => Test(p.item, p.i)),
            "Count" => Filtered().Count(),
            "LongCount" => Filtered().LongCount(),
            "First" => Pick(Filtered(), true, false, text, name),
            "FirstOrDefault" => Pick(Filtered(), true, true, text, name),
            "Last" => Pick(Filtered().Reverse(), true, false, text, name),
            "LastOrDefault" => Pick(Filtered().Reverse(), true, true, text, name),
            "Single" => Pick(Filtered(), false, false, text, name),
            "SingleOrDefault" => Pick(Filtered(), false, true, text, name),
            "Sum" => Sum(Projected().ToList(), text),
            "Average" => Average(Projected().ToList(), text),
            "Min" => Extreme(Projected().ToList(), SyntaxKind.LessThanExpression, text),
            "Max" => Extreme(Projected().ToList(), SyntaxKind.GreaterThanExpression, text),
            "OrderBy" => Sequence(Sort(items, lambda ?? throw Needs(name, text), false), elementType),
            "OrderByDescending" => Sequence(Sort(items, lambda ?? throw Needs(name, text), true), elementType),
            "Take" => Sequence(items.Take(Int(Argument(0), text)), elementType),
            "Skip" => Sequence(items.Skip(Int(Argument(0), text)), elementType),
            "TakeWhile" => Sequence(items.TakeWhile((item, i) => Test(item, i)), elementType),
            "SkipWhile" => Sequence(items.SkipWhile((item, i) => Test(item, i)), elementType),
            "ElementAt" => items.ElementAtOrDefault(Int(Argument(0), text)) is var e && e is null
                ? throw new EvalException($"'{text}': index out of range (ArgumentOutOfRangeException)") : e,
            "ToList" or "ToArray" or "AsEnumerable" => Sequence(items, elementType),
            "Reverse" => Sequence(items.Reverse(), elementType),
            "Distinct" => Sequence(Distinct(items), elementType),
            "Contains" => items.Any(item => Expressions.Operators.Equal(EvalValues.Local(item), Argument(0))),
            _ => throw new EvalException($"'{name}' is not supported in the adapter's LINQ"),
        };
    }

    /// <summary>OfType&lt;T&gt; keeps the items that are T; Cast&lt;T&gt; wants every item to be T (or null).</summary>
    private static SequenceValue OfType(IEnumerable<object?> items, IReadOnlyList<TypeSyntax> typeArguments, bool cast, EvalContext context, string text)
    {
        if (typeArguments.Count != 1) throw new EvalException($"'{text}' needs one type argument");
        string type = Interpreter.TypeNameOf(typeArguments[0]);
        var kept = new List<object?>();
        foreach (object? item in items)
        {
            if (Types.IsInstance(item, type, context)) kept.Add(item);
            else if (cast && !EvalValues.IsNull(item))
                throw new EvalException($"'{text}': cannot cast {Display.RuntimeTypeName(EvalValues.Local(item))} to {typeArguments[0]} (InvalidCastException)");
            else if (cast) kept.Add(null);
        }
        return new SequenceValue(kept, typeArguments[0].ToString());
    }

    /// <summary>List.ForEach / Array.ForEach: the lambda run for each element (its calls are func-evals, refused where
    /// calls are); void, as the method is.</summary>
    private static object? ForEach(IEnumerable<object?> items, Func<object?, int, object?> action)
    {
        int index = 0;
        foreach (object? item in items) action(item, index++);
        return null;
    }

    private static EvalException Needs(string name, string text) => new($"'{text}': {name} needs a lambda argument");

    private static SequenceValue Sequence(IEnumerable<object?> items, string elementType) => new(items.ToList(), elementType);

    /// <summary>A lambda compiled once for the whole enumeration (CompiledLambda).</summary>
    private static Func<object?, int, object?> Lambda(Interpreter interpreter, LambdaExpressionSyntax lambda) =>
        CompiledLambda.Compile(interpreter, lambda);

    /// <summary>Groups in the order their keys first appear, as Enumerable.GroupBy yields them.</summary>
    private static SequenceValue GroupBy(IEnumerable<object?> items, Func<object?, int, object?> key, string elementType)
    {
        var groups = new List<(object? Key, List<object?> Items)>();
        int index = 0;
        foreach (object? item in items)
        {
            object? k = EvalValues.Local(key(item, index++));
            int at = groups.FindIndex(g => Compare(g.Key, k) == 0 && Expressions.Operators.Equal(g.Key, k));
            if (at < 0) groups.Add((k, [item]));
            else groups[at].Items.Add(item);
        }
        var values = groups.Select(g => (object?)new GroupingValue(g.Key, new SequenceValue(g.Items, elementType))).ToList();
        string keyType = groups.Select(g => g.Key).FirstOrDefault(k => k is not null) is { } first ? Display.RuntimeTypeName(first) : "object";
        return new SequenceValue(values, $"IGrouping<{keyType}, {elementType}>");
    }

    private static SequenceValue SelectMany(Interpreter interpreter, IEnumerable<object?> items, Func<object?, int, object?> lambda, string text)
    {
        var flat = new List<object?>();
        int index = 0;
        foreach (object? item in items)
            flat.AddRange(Sequences.Enumerate(interpreter, interpreter.Stable(lambda(item, index++)), text).Select(interpreter.Stable));
        string type = flat.Select(EvalValues.Local).FirstOrDefault(p => p is not null) is { } first ? Display.RuntimeTypeName(first) : "object";
        return new SequenceValue(flat, type);
    }

    private static SequenceValue Select(IEnumerable<object?> items, Func<object?, int, object?> lambda)
    {
        var projected = items.Select((item, i) => lambda(item, i)).ToList();
        string type = projected.Select(EvalValues.Local).FirstOrDefault(p => p is not null) is { } first ? Display.RuntimeTypeName(first) : "object";
        return new SequenceValue(projected, type);
    }

    private static object? Pick(IEnumerable<object?> items, bool first, bool orDefault, string text, string name)
    {
        using var e = items.GetEnumerator();
        if (!e.MoveNext())
            return orDefault ? null : throw new EvalException($"'{text}': {name} found no element (InvalidOperationException: Sequence contains no matching element)");
        object? found = e.Current;
        if (!first && e.MoveNext())
            throw new EvalException($"'{text}': {name} found more than one element (InvalidOperationException)");
        return found;
    }

    private static int Int(object? value, string text) => value is int i ? i : throw new EvalException($"'{text}': the count must be an int");

    /// <summary>Enumerable.Sum as .NET computes it: the overload the element type picks (small
    /// integers as int, uint as long), int and long checked, float summed in double.</summary>
    /// <summary>Sum, Average, Min or Max of values projected elsewhere (TypedLinq), with .NET's semantics.</summary>
    private static object? Aggregate(IReadOnlyList<object?> values, string name, string text) => name switch
    {
        "Sum" => Sum([.. values], text),
        "Average" => Average([.. values], text),
        "Min" => Extreme([.. values], SyntaxKind.LessThanExpression, text),
        "Max" => Extreme([.. values], SyntaxKind.GreaterThanExpression, text),
        _ => throw new EvalException($"'{name}' is not supported in the adapter's LINQ"),
    };

    private static object? Sum(List<object?> values, string text)
    {
        var present = values.Where(v => v is not null).ToList();
        TypeCode kind = SumKind(present);
        object total = Total(present, kind, text);
        return kind == TypeCode.Single ? (float)(double)total : total;
    }

    /// <summary>Enumerable.Average: int and long summed in a checked long, the mean a double;
    /// float averaged in double and returned as float; decimal exact.</summary>
    private static object? Average(List<object?> values, string text)
    {
        var present = values.Where(v => v is not null).ToList();
        if (present.Count == 0) throw new EvalException($"'{text}': Sequence contains no elements (InvalidOperationException)");
        TypeCode kind = SumKind(present);
        object total = Total(present, kind == TypeCode.Int32 ? TypeCode.Int64 : kind, text);
        return total switch
        {
            long sum => (double)sum / present.Count,
            decimal sum => sum / present.Count,
            double sum when kind == TypeCode.Single => (float)(sum / present.Count),
            _ => (double)total / present.Count,
        };
    }

    /// <summary>The values added up in the accumulator type: int or long (checked), double
    /// (for float and double), or decimal; an overflow is .NET's OverflowException.</summary>
    private static object Total(List<object?> present, TypeCode accumulator, string text)
    {
        try
        {
            return accumulator switch
            {
                TypeCode.Int32 => present.Aggregate(0, (sum, v) => checked(sum + System.Convert.ToInt32(Number(v, text)))),
                TypeCode.Int64 => present.Aggregate(0L, (sum, v) => checked(sum + System.Convert.ToInt64(Number(v, text)))),
                TypeCode.Single => present.Aggregate(0.0, (sum, v) => sum + System.Convert.ToSingle(Number(v, text))),
                TypeCode.Double => present.Aggregate(0.0, (sum, v) => sum + System.Convert.ToDouble(Number(v, text))),
                _ => present.Aggregate(0m, (sum, v) => sum + System.Convert.ToDecimal(Number(v, text))),
            };
        }
        catch (OverflowException)
        {
            throw new EvalException($"'{text}': Arithmetic operation resulted in an overflow (OverflowException)");
        }
    }

    /// <summary>Which Sum/Average overload C# picks for these values.</summary>
    private static TypeCode SumKind(List<object?> present) => present.FirstOrDefault() switch
    {
        null or sbyte or byte or short or ushort or char or int => TypeCode.Int32,
        uint or long => TypeCode.Int64,
        float => TypeCode.Single,
        double => TypeCode.Double,
        _ => TypeCode.Decimal,
    };

    private static object Number(object? value, string text) => value switch
    {
        sbyte or byte or short or ushort or char or int or uint or long or ulong or float or double or decimal => value,
        _ => throw new EvalException($"'{text}': {Display.RuntimeTypeName(value)} is not a number"),
    };

    private static object? Extreme(List<object?> values, SyntaxKind better, string text)
    {
        var present = values.Where(v => v is not null).ToList();
        if (present.Count == 0) throw new EvalException($"'{text}': Sequence contains no elements (InvalidOperationException)");
        object? best = present[0];
        foreach (object? value in present.Skip(1))
            if (Compare(value, best) is var c && (better == SyntaxKind.LessThanExpression ? c < 0 : c > 0)) best = value;
        return best;
    }

    private static int Compare(object? a, object? b)
    {
        if (a is string sa && b is string sb) return string.CompareOrdinal(sa, sb);
        if (a is EnumValue ea && b is EnumValue eb) return ea.Number.CompareTo(eb.Number);
        if (a is null || b is null) return a is null ? (b is null ? 0 : -1) : 1;
        if (Expressions.Operators.Equal(a, b)) return 0;
        return Expressions.Operators.Binary(SyntaxKind.LessThanExpression, a, b, "compare") is true ? -1 : 1;
    }

    private static List<object?> Sort(IEnumerable<object?> items, Func<object?, int, object?> key, bool descending)
    {
        var keyed = items.Select((item, i) => (Item: item, Key: EvalValues.Local(key(item, i)))).ToList();
        var sorted = descending ? keyed.OrderByDescending(p => p.Key, Comparer<object?>.Create(Compare))
            : keyed.OrderBy(p => p.Key, Comparer<object?>.Create(Compare));
        return [.. sorted.Select(p => p.Item)];
    }

    private static List<object?> Distinct(IEnumerable<object?> items)
    {
        var kept = new List<object?>();
        foreach (object? item in items)
        {
            object? local = EvalValues.Local(item);
            if (!kept.Any(k => Expressions.Operators.Equal(EvalValues.Local(k), local))) kept.Add(item);
        }
        return kept;
    }
}
