// Enumerating collections in the adapter, in their own enumeration order, by reading their
// internals (no code runs in the debuggee): arrays, List, Dictionary (key/value pairs),
// HashSet, Queue, Stack, strings and sequences LINQ already computed here.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Session;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Evaluation;

public static class Sequences
{
    /// <summary>The items of an enumerable value, each counted against the context's budget.</summary>
    public static IEnumerable<object?> Enumerate(EvalContext context, object? source, string sourceText)
    {
        foreach (object? item in Items(source, sourceText))
        {
            context.CountItem();
            yield return item;
        }
    }

    private static IEnumerable<object?> Items(object? source, string sourceText)
    {
        object? local = Interpreter.Local(source);
        switch (local)
        {
            case null:
                throw new EvalException($"'{sourceText}' is null (ArgumentNullException: Value cannot be null. (Parameter 'source'))");
            case SequenceValue sequence:
                return sequence.Items;
            case string text:
                return text.Select(c => (object?)c);
            case RemoteValue remote:
                return RemoteItems(remote.Value, sourceText);
            default:
                throw new EvalException($"'{sourceText}' is not a collection ({Types.RuntimeTypeName(local)})");
        }
    }

    private static IEnumerable<object?> RemoteItems(ICorDebugValue value, string sourceText)
    {
        if (PathEvaluator.Dereference(value) is ICorDebugArrayValue array) return ArrayItems(array, 0, null);
        string? name = Members.ClassName(value);
        return name switch
        {
            "System.Collections.Generic.List`1" => ArrayItems(BackingArray(value, "_items"), 0, SizeOf(value, "_size")),
            "System.Collections.Generic.Dictionary`2" => EntryItems(value, e =>
                new PairValue(new RemoteValue(Members.RawField(e, "key")!), new RemoteValue(Members.RawField(e, "value")!)), "next"),
            "System.Collections.Generic.HashSet`1" => EntryItems(value, e => new RemoteValue(Members.RawField(e, "Value")!), "Next"),
            "System.Collections.Generic.Queue`1" => QueueItems(value),
            "System.Collections.Generic.Stack`1" => ArrayItems(BackingArray(value, "_array"), 0, SizeOf(value, "_size")).Reverse(),
            _ => throw new EvalException($"cannot enumerate '{sourceText}' ({Types.RuntimeTypeName(new RemoteValue(value))}) in the adapter: arrays, List, Dictionary, HashSet, Queue and Stack are supported"),
        };
    }

    private static ICorDebugArrayValue? BackingArray(ICorDebugValue collection, string field) =>
        Members.RawField(collection, field) is { } items ? PathEvaluator.Dereference(items) as ICorDebugArrayValue : null;

    private static int SizeOf(ICorDebugValue collection, string field) =>
        Members.RawField(collection, field) is { } size && EvalValues.FromDebuggee(size) is int n ? n : 0;

    private static IEnumerable<object?> ArrayItems(ICorDebugArrayValue? array, int start, int? count)
    {
        if (array is null) yield break;
        array.GetCount(out uint length);
        int end = count is { } c ? Math.Min(start + c, (int)length) : (int)length;
        for (int i = start; i < end; i++)
        {
            if (array.GetElementAtPosition((uint)i, out var element) < 0)
                throw new EvalException($"cannot read element {i} of the collection");
            yield return new RemoteValue(element);
        }
    }

    /// <summary>Dictionary and HashSet keep entries in insertion order; freed ones have next &lt; -1.</summary>
    private static IEnumerable<object?> EntryItems(ICorDebugValue collection, Func<ICorDebugValue, object?> item, string nextField)
    {
        ICorDebugArrayValue? entries = BackingArray(collection, "_entries");
        int count = SizeOf(collection, "_count");
        foreach (RemoteValue? entry in ArrayItems(entries, 0, count).Cast<RemoteValue?>())
        {
            if (entry is null || Members.RawField(entry.Value, nextField) is not { } next) continue;
            if (EvalValues.FromDebuggee(next) is int n && n < -1) continue;
            yield return item(entry.Value);
        }
    }

    private static IEnumerable<object?> QueueItems(ICorDebugValue queue)
    {
        ICorDebugArrayValue? array = BackingArray(queue, "_array");
        if (array is null) yield break;
        array.GetCount(out uint length);
        int head = SizeOf(queue, "_head"), size = SizeOf(queue, "_size");
        for (int i = 0; i < size; i++)
        {
            array.GetElementAtPosition((uint)((head + i) % length), out var element);
            yield return new RemoteValue(element);
        }
    }

    /// <summary>The element type's C# name, for a sequence's display.</summary>
    public static string ElementTypeName(object? source)
    {
        object? local = Interpreter.Local(source);
        if (local is SequenceValue s) return s.ElementType;
        if (local is string) return "char";
        if (local is RemoteValue remote && PathEvaluator.Dereference(remote.Value) is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0)
        {
            var arguments = TypeNames.TypeArguments(type);
            if (type.GetType(out int elementType) >= 0 && elementType is CorElementType.SzArray or CorElementType.Array
                && type.GetFirstTypeParameter(out var element) >= 0)
                return TypeNames.Format(element);
            if (arguments.Count == 1) return TypeNames.Format(arguments[0]);
            if (arguments.Count == 2) return $"KeyValuePair<{TypeNames.Format(arguments[0])}, {TypeNames.Format(arguments[1])}>";
        }
        return "object";
    }
}
