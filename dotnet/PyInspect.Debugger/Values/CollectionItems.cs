// The items of common collections read from their own fields, in enumeration order, as a
// debugger shows them: "Count = N", then [0], [1]... (a dictionary's by key), then "Raw
// View" with the object's fields and properties. No code runs in the debuggee.
// Layouts (.NET 8-10): List<T> _items/_size; Queue<T> _array/_head/_size (a ring);
// Stack<T> _array/_size (top first); HashSet<T> and Dictionary<K,V> _entries/_count with
// free entries marked by next < -1.
using System.Globalization;
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

/// <summary>A collection's items page by page, and its fields under "Raw View".</summary>
public sealed record CollectionChildren(string Kind, int Count, ObjectChildren Raw, string EvaluateName)
    : ChildSource(EvaluateName);

public static class CollectionItems
{
    private static readonly Dictionary<string, string> Kinds = new(StringComparer.Ordinal)
    {
        ["System.Collections.Generic.List`1"] = "list",
        ["System.Collections.Generic.Queue`1"] = "queue",
        ["System.Collections.Generic.Stack`1"] = "stack",
        ["System.Collections.Generic.HashSet`1"] = "set",
        ["System.Collections.Generic.Dictionary`2"] = "dictionary",
    };

    /// <summary>Whether objects of the class (its metadata name) are shown by their items ("Count = 3").</summary>
    public static bool ShowsItems(string className) => Kinds.ContainsKey(className);

    /// <summary>The collection view of an object, or null when it is no collection we know.</summary>
    public static CollectionChildren? For(ObjectChildren obj)
    {
        if (obj.Type.GetClass(out var cls) < 0) return null;
        if (!Kinds.TryGetValue(TypeNames.DeclaredName(cls), out string? kind)) return null;
        int? count = Int(obj, kind is "list" or "queue" or "stack" ? "_size" : "_count");
        if (count is null) return null;
        if (kind is "set" or "dictionary") count -= Int(obj, "_freeCount") ?? 0;
        return new CollectionChildren(kind, Math.Max(count.Value, 0), obj, obj.EvaluateName);
    }

    public static IReadOnlyList<VariableView> Read(CollectionChildren source, int first, int take, bool hex)
    {
        var views = new List<VariableView>(take);
        foreach (var (index, store, position) in Slots(source))
        {
            if (index >= first + take) break;
            if (index < first || store.GetElementAtPosition((uint)position, out var element) < 0) continue;
            views.Add(Item(source, element, index, hex));
        }
        return views;
    }

    /// <summary>Where the item a `variables` answer named `name` is stored (a list's, queue's or
    /// stack's slot, a dictionary entry's value), read now; null when no item has that name.</summary>
    public static ICorDebugValue? ItemStorage(CollectionChildren source, string name)
    {
        foreach (var (index, store, position) in Slots(source))
        {
            if (store.GetElementAtPosition((uint)position, out var element) < 0) continue;
            if (source.Kind == "dictionary")
            {
                if (PathMember(element, "key") is { } key && $"[{VariableReader.Describe("", "", key).Value}]" == name)
                    return PathMember(element, "value");
            }
            else if ($"[{index.ToString(CultureInfo.InvariantCulture)}]" == name) return element;
        }
        return null;
    }

    /// <summary>The collection's items in the order `variables` shows them: each one's index
    /// there and its slot in the backing array (read by the caller, only where it needs it).</summary>
    private static IEnumerable<(int Index, ICorDebugArrayValue Store, int Position)> Slots(CollectionChildren source)
    {
        ObjectChildren obj = source.Raw;
        var store = Field(obj, source.Kind is "set" or "dictionary" ? "_entries" : source.Kind == "list" ? "_items" : "_array")
            as ICorDebugArrayValue;
        if (store is null) yield break;
        store.GetCount(out uint length);
        int head = source.Kind == "queue" ? Int(obj, "_head") ?? 0 : 0;
        int index = 0;
        foreach (int position in Positions(source.Kind, store, (int)length, head, Int(obj, "_size") ?? 0, source.Count))
            yield return (index++, store, position);
    }

    private static IEnumerable<int> Positions(string kind, ICorDebugArrayValue store, int length, int head, int size, int count)
    {
        switch (kind)
        {
            case "list": for (int i = 0; i < Math.Min(size, length); i++) yield return i; break;
            case "queue": for (int i = 0; i < Math.Min(size, length); i++) yield return (head + i) % length; break;
            case "stack": for (int i = Math.Min(size, length) - 1; i >= 0; i--) yield return i; break;
            default:
                for (int i = 0, found = 0; i < length && found < count; i++)
                {
                    if (store.GetElementAtPosition((uint)i, out var entry) < 0 || EntryNext(entry) < -1) continue;
                    found++;
                    yield return i;
                }
                break;
        }
    }

    private static VariableView Item(CollectionChildren source, ICorDebugValue element, int index, bool hex)
    {
        string at = index.ToString(CultureInfo.InvariantCulture);
        switch (source.Kind)
        {
            case "list":
                return VariableReader.Describe($"[{at}]", $"{source.EvaluateName}[{at}]", element, hex);
            case "set":
                return VariableReader.Describe($"[{at}]", "", PathMember(element, "Value") ?? element, hex);
            case "dictionary":
                ICorDebugValue? key = PathMember(element, "key"), value = PathMember(element, "value");
                if (key is null || value is null) return VariableReader.Describe($"[{at}]", "", element, hex);
                string keyText = VariableReader.Describe("", "", key).Value;
                return VariableReader.Describe($"[{keyText}]", $"{source.EvaluateName}[{keyText}]", value, hex);
            default:
                return VariableReader.Describe($"[{at}]", "", element, hex);
        }
    }

    /// <summary>An entry's next index; below -1 marks a free entry.</summary>
    private static int EntryNext(ICorDebugValue entry)
    {
        ICorDebugValue? next = PathMember(entry, "next") ?? PathMember(entry, "Next");
        return next is not null && ValueText.RawBytes(next) is { Length: >= 4 } raw ? BitConverter.ToInt32(raw) : 0;
    }

    private static ICorDebugValue? PathMember(ICorDebugValue value, string name)
    {
        if (value is not ICorDebugObjectValue obj || value is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0) return null;
        foreach (var (cls, field) in VariableReader.InstanceFields(type))
            if (field.Name == name && obj.GetFieldValue(cls, field.Token, out var member) >= 0) return member;
        return null;
    }

    private static ICorDebugValue? Field(ObjectChildren obj, string name)
    {
        ICorDebugObjectValue current = obj.Current();
        foreach (var (cls, field) in VariableReader.InstanceFields(obj.Type))
            if (field.Name == name && current.GetFieldValue(cls, field.Token, out var value) >= 0)
                return Deref(value);
        return null;
    }

    private static ICorDebugValue? Deref(ICorDebugValue value) =>
        value is ICorDebugReferenceValue reference && reference.IsNull(out int isNull) >= 0 && isNull == 0
            && reference.Dereference(out var target) >= 0 ? target : value is ICorDebugReferenceValue ? null : value;

    private static int? Int(ObjectChildren obj, string name) =>
        Field(obj, name) is { } value && ValueText.RawBytes(value) is { Length: >= 4 } raw ? BitConverter.ToInt32(raw) : null;
}
