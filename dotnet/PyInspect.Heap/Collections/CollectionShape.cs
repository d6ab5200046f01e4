using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// What a collection object is, without reading its elements: its kind, element count
/// and element type (reflection form). Kinds are recognised by the runtime's own type
/// names; counts come from the fields the collection itself keeps (List._size,
/// Dictionary._count - _freeCount, ...), as laid out in .NET 8-10.
/// </summary>
internal sealed record CollectionShape(string Kind, int Count, string ElementType, bool IsPairs)
{
    private static readonly (string Prefix, string Kind)[] Kinds =
    {
        ("System.Collections.Generic.List<", "List"),
        ("System.Collections.Generic.Dictionary<", "Dictionary"),
        ("System.Collections.Generic.HashSet<", "HashSet"),
        ("System.Collections.Generic.Queue<", "Queue"),
        ("System.Collections.Generic.Stack<", "Stack"),
        ("System.Collections.Generic.LinkedList<", "LinkedList"),
        ("System.Collections.Generic.SortedDictionary<", "SortedDictionary"),
        ("System.Collections.Generic.SortedSet<", "SortedSet"),
        ("System.Collections.Generic.TreeSet<", "SortedSet"),
        ("System.Collections.Concurrent.ConcurrentDictionary<", "ConcurrentDictionary"),
        ("System.Collections.Concurrent.ConcurrentQueue<", "ConcurrentQueue"),
        ("System.Collections.Immutable.ImmutableArray<", "ImmutableArray"),
        ("System.Collections.Immutable.ImmutableList<", "ImmutableList"),
        ("System.Collections.ArrayList", "ArrayList"),
        ("System.Collections.Hashtable", "Hashtable"),
    };

    /// <summary>The collection kind of a type name, or null.</summary>
    public static string? KindOf(ClrType type)
    {
        if (type.IsArray)
            return "Array";
        string name = type.Name ?? "";
        foreach (var (prefix, kind) in Kinds)
        {
            bool exact = !prefix.EndsWith('<');
            if (exact ? name == prefix : name.StartsWith(prefix, StringComparison.Ordinal) && ClosesAtEnd(name, prefix.Length))
                return kind;
        }
        return null;
    }

    /// <summary>True when the generic argument list opened before start ends the name
    /// (so List&lt;T&gt;+Enumerator is not a List).</summary>
    private static bool ClosesAtEnd(string name, int start)
    {
        int depth = 1;
        for (int i = start; i < name.Length; i++)
        {
            if (name[i] == '<') depth++;
            else if (name[i] == '>' && --depth == 0)
                return i == name.Length - 1;
        }
        return false;
    }

    public static CollectionShape? Of(ClrObject obj, SlotReader reader)
    {
        var type = obj.Type;
        if (type is null || KindOf(type) is not { } kind)
            return null;
        var args = TypeNames.GenericArguments(type.Name);
        string first = args.Count > 0 ? args[0] : "System.Object";
        string pair = "System.Collections.Generic.KeyValuePair`2[" + string.Join(",", args) + "]";
        return kind switch
        {
            "Array" => new(kind, obj.AsArray().Length, TypeNames.Reflection(type.ComponentType?.Name), false),
            "List" or "Stack" or "Queue" => new(kind, obj.ReadField<int>("_size"), first, false),
            "ArrayList" => new(kind, obj.ReadField<int>("_size"), "System.Object", false),
            "HashSet" => new(kind, obj.ReadField<int>("_count") - obj.ReadField<int>("_freeCount"), first, false),
            "Dictionary" => new(kind, obj.ReadField<int>("_count") - obj.ReadField<int>("_freeCount"), pair, true),
            "LinkedList" or "SortedSet" => new(kind, obj.ReadField<int>("count"), first, false),
            "SortedDictionary" => new(kind, obj.ReadObjectField("_set").ReadField<int>("count"), pair, true),
            "ConcurrentDictionary" => new(kind, ConcurrentCount(obj), pair, true),
            "ConcurrentQueue" => new(kind, CollectionWalker.ConcurrentQueueCount(obj, reader), first, false),
            "Hashtable" => new(kind, obj.ReadField<int>("_count"), "System.Collections.DictionaryEntry", true),
            "ImmutableArray" => new(kind, ImmutableArrayItems(obj, reader) is { IsNull: false } items ? items.AsArray().Length : 0, first, false),
            "ImmutableList" => new(kind, ImmutableListCount(obj), first, false),
            _ => null,
        };
    }

    private static int ConcurrentCount(ClrObject obj)
    {
        var perLock = obj.ReadObjectField("_tables").ReadObjectField("_countPerLock").AsArray();
        int total = 0;
        foreach (int count in perLock.ReadValues<int>(0, perLock.Length) ?? Array.Empty<int>())
            total += count;
        return total;
    }

    private static int ImmutableListCount(ClrObject obj)
    {
        var root = obj.ReadObjectField("_root");
        return root.IsNull || root.ReadObjectField("_left").IsNull ? 0 : root.ReadField<int>("_count");
    }

    /// <summary>The T[] inside a boxed ImmutableArray (null for a default one).</summary>
    public static ClrObject ImmutableArrayItems(ClrObject boxed, SlotReader reader)
    {
        var field = boxed.Type!.GetFieldByName("array") ?? throw Layout(boxed.Type, "array");
        ulong address = reader.Pointer(boxed.Address + (ulong)reader.PointerSize + (ulong)field.Offset);
        return address == 0 ? default : reader.Heap.GetObject(address);
    }

    public static HeapTargetException Layout(ClrType? type, string field) =>
        new("HEAP_READ_ERROR", $"unexpected layout: {type?.Name ?? "?"} has no field {field}");
}
