// Enumerating collections in the adapter, in their own enumeration order, by reading their
// internals (no code runs in the debuggee): arrays, List, Dictionary (key/value pairs),
// HashSet, Queue, Stack, strings and sequences LINQ already computed here. Any other
// IEnumerable is copied by the debuggee itself into an object[] (two func-evals), then read.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Evaluation.Getters;

namespace PyInspect.Debugger.Evaluation.Linq;

public static class Sequences
{
    /// <summary>The items of an enumerable value, each counted against the context's budget.</summary>
    /// <summary>Only elements read from the debuggee count: a sequence LINQ already computed here
    /// was counted when its source was read (Where(...).Count() counts each source element once).</summary>
    public static IEnumerable<object?> Enumerate(Interpreter interpreter, object? source, string sourceText)
    {
        IEnumerable<object?> items = Items(interpreter, source, sourceText);
        return EvalValues.Local(source) is RemoteValue ? Counted(interpreter.Context, items, sourceText) : items;
    }

    private static IEnumerable<object?> Counted(EvalContext context, IEnumerable<object?> items, string sourceText)
    {
        int read = 0;
        foreach (object? item in items)
        {
            context.CountItem(sourceText, read++);
            yield return item;
        }
    }

    private static IEnumerable<object?> Items(Interpreter interpreter, object? source, string sourceText)
    {
        object? local = EvalValues.Local(source);
        switch (local)
        {
            case null:
                throw new EvalException($"'{sourceText}' is null (ArgumentNullException: Value cannot be null. (Parameter 'source'))");
            case SequenceValue sequence:
                return sequence.Items;
            case GroupingValue group:
                return group.Items.Items;
            case string text:
                return text.Select(c => (object?)c);
            case RemoteValue remote:
                return RemoteItems(interpreter, remote.Value, sourceText);
            case MadeValue { SequenceOf: not null } made:
                return IlEnumeration.Items(interpreter.Context, made, sourceText);
            default:
                throw new EvalException($"'{sourceText}' is not a collection ({Display.RuntimeTypeName(local)})");
        }
    }

    /// <summary>Collections read from their internals, by runtime class; other enumerables are copied.</summary>
    private static readonly Dictionary<string, Func<EvalContext, ICorDebugValue, IEnumerable<object?>>> InternalReaders = new(StringComparer.Ordinal)
    {
        ["System.Collections.Generic.List`1"] = (context, value) =>
            ArrayItems(context, Members.RawField(value, "_items"), 0, SizeOf(value, "_size")),
        ["System.Collections.Generic.Dictionary`2"] = (context, value) =>
            EntryItems(context, value, e => new PairValue(EntryField(e, "key"), EntryField(e, "value")), "next"),
        ["System.Collections.Generic.HashSet`1"] = (context, value) => EntryItems(context, value, e => EntryField(e, "Value"), "Next"),
        ["System.Collections.Generic.Queue`1"] = QueueItems,
        ["System.Collections.Generic.Stack`1"] = (context, value) =>
            ArrayItems(context, Members.RawField(value, "_array"), 0, SizeOf(value, "_size")).Reverse(),
    };

    /// <summary>Arrays and the collections above: enumerated here without running debuggee code.</summary>
    public static bool ReadsInternals(RemoteValue value) =>
        ValuePath.Dereference(value.Value) is ICorDebugArrayValue || InternalReaders.ContainsKey(Members.ClassName(value.Value) ?? "");

    private static IEnumerable<object?> RemoteItems(Interpreter interpreter, ICorDebugValue value, string sourceText)
    {
        EvalContext context = interpreter.Context;
        if (ValuePath.Dereference(value) is ICorDebugArrayValue) return ArrayItems(context, value, 0, null);
        return InternalReaders.TryGetValue(Members.ClassName(value) ?? "", out var read)
            ? read(context, value) : CopiedItems(interpreter, value, sourceText);
    }

    /// <summary>Whether a debuggee object is enumerable (implements IEnumerable).</summary>
    public static bool IsEnumerable(RemoteValue value) => Types.TypeChain(value.Value).Contains("System.Collections.IEnumerable");

    /// <summary>Any other IEnumerable, enumerated by the debuggee into an object[]:
    /// Enumerable.ToArray(Enumerable.Cast&lt;object&gt;(source)). Values come back boxed.</summary>
    private static IEnumerable<object?> CopiedItems(Interpreter interpreter, ICorDebugValue value, string sourceText)
    {
        EvalContext context = interpreter.Context;
        var source = new RemoteValue(context.Pin(value));
        if (!IsEnumerable(source))
            throw new EvalException($"'{sourceText}' is not a collection ({Display.RuntimeTypeName(source)})");
        TypeRef linq = Types.Resolve("System.Linq.Enumerable", context)
            ?? throw new EvalException($"cannot enumerate '{sourceText}': System.Linq is not loaded in the debuggee");
        ICorDebugType objectType = Types.ObjectType(context) ?? throw new EvalException("cannot find System.Object in the debuggee");
        object? cast = Invocation.CallStaticGeneric(interpreter, linq, "Cast", [objectType], [source], $"Enumerable.Cast<object>({sourceText})");
        // Interpreted (a read-only evaluation), Cast answers an iterator made in the adapter: enumerated there.
        if (cast is MadeValue made) return IlEnumeration.Items(context, made, sourceText);
        object? copy = Invocation.CallStaticGeneric(interpreter, linq, "ToArray", [objectType], [cast], $"Enumerable.ToArray({sourceText})");
        return ArrayItems(context, (copy as RemoteValue)?.Value, 0, null);
    }

    private static int SizeOf(ICorDebugValue collection, string field) =>
        Members.RawField(collection, field) is { } size && EvalValues.FromDebuggee(size) is int n ? n : 0;

    /// <summary>Elements of an array held by a handle; each element can read itself again from it after a func-eval.
    /// Numbers, bools and chars are read from memory a block at a time instead.</summary>
    private static IEnumerable<object?> ArrayItems(EvalContext context, ICorDebugValue? arrayValue, int start, int? count)
    {
        if (arrayValue is null) yield break;
        ICorDebugValue held = context.Pin(arrayValue);
        int generation = EvalContext.Generation;
        if (ValuePath.Dereference(held) is not ICorDebugArrayValue array) yield break;
        array.GetCount(out uint length);
        int end = count is { } c ? Math.Min(start + c, (int)length) : (int)length;
        ICorDebugValue Element(ICorDebugArrayValue from, int i) =>
            from.GetElementAtPosition((uint)i, out var element) >= 0 ? element : throw new EvalException($"cannot read element {i} of the collection");
        if (context.ReadMemory is { } read && array.GetElementType(out int elementType) >= 0)
        {
            if (EvalValues.PrimitiveSize(elementType) is int size)
            {
                foreach (object? number in PrimitiveBlocks(read, held, elementType, size, start, end)) yield return number;
                yield break;
            }
            if (elementType is CorElementType.Class or CorElementType.Object or CorElementType.String or CorElementType.SzArray or CorElementType.Array
                && start < end && SlotOf(array, start) is not null)
            {
                // References read a block at a time; each element's ICorDebugValue is made only if used.
                foreach (var (index, address) in ReferenceBlocks(read, held, start, end))
                    yield return address == 0 ? null
                        : new RemoteValue(address, () => Element((ICorDebugArrayValue)ValuePath.Dereference(held)!, index));
                yield break;
            }
        }
        for (int i = start; i < end; i++)
        {
            if (generation != EvalContext.Generation)
            {
                array = ValuePath.Dereference(held) as ICorDebugArrayValue ?? throw new EvalException("the collection went away");
                generation = EvalContext.Generation;
            }
            int index = i;
            var item = new RemoteValue(Element(array, i), () => Element((ICorDebugArrayValue)ValuePath.Dereference(held)!, index));
            yield return item.Value is ICorDebugReferenceValue ? item : EvalValues.Local(item) is var local && local is RemoteValue ? item : local;
        }
    }

    /// <summary>Primitive elements [start, end) read 64 KB at a time. The array's address is
    /// taken again after any func-eval (a GC may have moved it meanwhile).</summary>
    private static IEnumerable<object?> PrimitiveBlocks(Func<ulong, byte[], int> read, ICorDebugValue held, int elementType, int size, int start, int end)
    {
        int perBlock = Math.Max(1, 65536 / size);
        var buffer = new byte[perBlock * size];
        for (int at = start; at < end; at += perBlock)
        {
            int n = Math.Min(perBlock, end - at);
            if (ValuePath.Dereference(held) is not ICorDebugArrayValue array || array.GetElementAtPosition((uint)at, out var first) < 0
                || first.GetAddress(out ulong address) < 0 || address == 0)
                throw new EvalException($"cannot read element {at} of the collection");
            var block = n == perBlock ? buffer : new byte[n * size];
            if (read(address, block) < n * size) throw new EvalException($"cannot read elements {at}..{at + n - 1} of the collection");
            for (int i = 0; i < n; i++) yield return EvalValues.FromBytes(elementType, block.AsSpan(i * size, size));
        }
    }

    /// <summary>Where an element's reference is stored, when ICorDebug says (else the per-element path is used).</summary>
    private static ulong? SlotOf(ICorDebugArrayValue array, int index) =>
        array.GetElementAtPosition((uint)index, out var element) >= 0 && element is ICorDebugReferenceValue
            && element.GetAddress(out ulong slot) >= 0 && slot != 0 ? slot : null;

    /// <summary>Object references [start, end) read 64 KB at a time, with each block's first one
    /// checked against what ICorDebug reads for that element.</summary>
    private static IEnumerable<(int Index, ulong Address)> ReferenceBlocks(Func<ulong, byte[], int> read, ICorDebugValue held, int start, int end)
    {
        const int perBlock = 8192;
        var buffer = new byte[perBlock * 8];
        for (int at = start; at < end; at += perBlock)
        {
            int n = Math.Min(perBlock, end - at);
            if (ValuePath.Dereference(held) is not ICorDebugArrayValue array || array.GetElementAtPosition((uint)at, out var first) < 0
                || first.GetAddress(out ulong slot) < 0 || slot == 0 || first is not ICorDebugReferenceValue reference
                || reference.GetValue(out ulong firstAddress) < 0)
                throw new EvalException($"cannot read element {at} of the collection");
            var block = n == perBlock ? buffer : new byte[n * 8];
            if (read(slot, block) < n * 8) throw new EvalException($"cannot read elements {at}..{at + n - 1} of the collection");
            if (BitConverter.ToUInt64(block, 0) != firstAddress) throw new EvalException($"element {at} of the collection reads differently from memory");
            for (int i = 0; i < n; i++) yield return (at + i, BitConverter.ToUInt64(block, i * 8));
        }
    }

    /// <summary>Dictionary and HashSet keep entries in insertion order; freed ones have next &lt; -1.</summary>
    /// <summary>A field of a Dictionary/HashSet entry, read again through the entry after a func-eval.</summary>
    private static object? EntryField(RemoteValue entry, string name)
    {
        ICorDebugValue Read() => Members.RawField(entry.Value, name) ?? throw new EvalException($"the collection entry has no '{name}'");
        var field = new RemoteValue(Read(), Read);
        return EvalValues.Local(field) is var local && local is RemoteValue ? field : local;
    }

    private static IEnumerable<object?> EntryItems(EvalContext context, ICorDebugValue collection, Func<RemoteValue, object?> item, string nextField)
    {
        int count = SizeOf(collection, "_count");
        foreach (RemoteValue? entry in ArrayItems(context, Members.RawField(collection, "_entries"), 0, count).Cast<RemoteValue?>())
        {
            if (entry is null || Members.RawField(entry.Value, nextField) is not { } next) continue;
            if (EvalValues.FromDebuggee(next) is int n && n < -1) continue;
            yield return item(entry);
        }
    }

    private static IEnumerable<object?> QueueItems(EvalContext context, ICorDebugValue queue)
    {
        int head = SizeOf(queue, "_head"), size = SizeOf(queue, "_size");
        var ring = ArrayItems(context, Members.RawField(queue, "_array"), 0, null).ToList();
        for (int i = 0; i < size && ring.Count > 0; i++) yield return ring[(head + i) % ring.Count];
    }

    /// <summary>The element type's C# name, for a sequence's display.</summary>
    public static string ElementTypeName(object? source)
    {
        object? local = EvalValues.Local(source);
        if (local is SequenceValue s) return s.ElementType;
        if (local is MadeValue { SequenceOf: { } made }) return made;
        if (local is GroupingValue g) return g.Items.ElementType;
        if (local is string) return "char";
        if (local is RemoteValue remote && ValuePath.Dereference(remote.Value) is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0)
        {
            var arguments = TypeNames.TypeArguments(type);
            if (type.GetType(out int elementType) >= 0 && elementType is CorElementType.SzArray or CorElementType.Array
                && type.GetFirstTypeParameter(out var element) >= 0)
                return TypeNames.Format(element);
            string? name = type.GetClass(out var cls) >= 0 ? TypeNames.DeclaredName(cls) : null;
            if (arguments.Count == 2 && name?.EndsWith("KeyCollection", StringComparison.Ordinal) == true) return TypeNames.Format(arguments[0]);
            if (arguments.Count == 2 && name?.EndsWith("ValueCollection", StringComparison.Ordinal) == true) return TypeNames.Format(arguments[1]);
            if (arguments.Count == 1) return TypeNames.Format(arguments[0]);
            if (arguments.Count == 2) return $"KeyValuePair<{TypeNames.Format(arguments[0])}, {TypeNames.Format(arguments[1])}>";
        }
        return "object";
    }
}
