using System.Collections.Immutable;

namespace MemoryTruth;

/// <summary>The truth for every collection in a <see cref="Bag"/>, by field name.</summary>
public static class Collections
{
    public static Dictionary<string, object> Truth(Bag b) => new()
    {
        ["Ints"] = CollectionTruth.Sequence(b.Ints, b.Ints, "List"),
        ["Doubles"] = CollectionTruth.Sequence(b.Doubles, b.Doubles, "List"),
        ["Infinities"] = CollectionTruth.Sequence(b.Infinities, b.Infinities, "List"),
        ["Floats"] = CollectionTruth.Sequence(b.Floats, b.Floats, "List"),
        ["Decimals"] = CollectionTruth.Sequence(b.Decimals, b.Decimals, "List"),
        ["Longs"] = CollectionTruth.Sequence(b.Longs, b.Longs, "List"),
        ["WithNulls"] = CollectionTruth.Sequence(b.WithNulls, b.WithNulls, "List"),
        ["Points"] = CollectionTruth.Sequence(b.Points, b.Points, "List"),
        ["Mixed"] = CollectionTruth.Sequence(b.Mixed, b.Mixed, "List"),
        ["Animals"] = CollectionTruth.Sequence(b.Animals, b.Animals, "List"),
        ["Dict"] = CollectionTruth.Pairs(b.Dict, b.Dict, "Dictionary"),
        ["Orders"] = CollectionTruth.Pairs(b.Orders, b.Orders, "Dictionary"),
        ["Set"] = CollectionTruth.Sequence(b.Set, b.Set, "HashSet"),
        ["Queue"] = CollectionTruth.Sequence(b.Queue, b.Queue, "Queue"),
        ["Stack"] = CollectionTruth.Sequence(b.Stack, b.Stack, "Stack"),
        ["Linked"] = CollectionTruth.Sequence(b.Linked, b.Linked, "LinkedList"),
        ["Sorted"] = CollectionTruth.Pairs(b.Sorted, b.Sorted, "SortedDictionary"),
        ["SortedSet"] = CollectionTruth.Sequence(b.SortedSet, b.SortedSet, "SortedSet"),
        ["Concurrent"] = CollectionTruth.Pairs(b.Concurrent, b.Concurrent, "ConcurrentDictionary"),
        ["ConcurrentQueue"] = CollectionTruth.Sequence(b.ConcurrentQueue, b.ConcurrentQueue, "ConcurrentQueue"),
        ["ArrayList"] = CollectionTruth.Sequence(b.ArrayList, b.ArrayList.Cast<object>(), "ArrayList"),
        ["Hashtable"] = CollectionTruth.Entries(b.Hashtable),
        ["BoxedImmutableArray"] = CollectionTruth.Sequence(b.BoxedImmutableArray, (ImmutableArray<int>)b.BoxedImmutableArray, "ImmutableArray"),
        ["ImmutableList"] = CollectionTruth.Sequence(b.ImmutableList, b.ImmutableList, "ImmutableList"),
        ["Array"] = CollectionTruth.Sequence(b.Array, b.Array, "Array"),
        ["Grid"] = CollectionTruth.Sequence(b.Grid, b.Grid.Cast<int>(), "Array"),
        ["Jagged"] = CollectionTruth.Sequence(b.Jagged, b.Jagged, "Array"),
        ["Empty"] = CollectionTruth.Sequence(b.Empty, b.Empty, "Array"),
        ["Large"] = CollectionTruth.Sequence(b.Large, b.Large, "List"),
        ["notACollection"] = MemoryTruth.Truth.Hex(b.NotACollection),
    };
}
