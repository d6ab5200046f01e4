using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Collections whose storage array is far larger than what they hold (List, Dictionary,
/// HashSet, Queue, Stack): one pass over the graph's live objects of those types reading the
/// count field and the storage array's length, never a collection walk. Summed by collection
/// type and owner: the first object above it in the dominator tree that is neither an array
/// nor a System.Collections type (the class that keeps the collections), "a root" when none.
/// </summary>
internal static class CollectionCapacity
{
    private const int MaxOwnerSteps = 64;

    private static readonly (string Prefix, string Count, string Storage, string? Free)[] Shapes =
    {
        ("System.Collections.Generic.List<", "_size", "_items", null),
        ("System.Collections.Generic.Dictionary<", "_count", "_entries", "_freeCount"),
        ("System.Collections.Generic.HashSet<", "_count", "_entries", "_freeCount"),
        ("System.Collections.Generic.Queue<", "_size", "_array", null),
        ("System.Collections.Generic.Stack<", "_size", "_array", null),
    };

    public static List<WastedCapacityRecord> Find(HeapGraph g, int top)
    {
        var shapeOf = new Dictionary<int, int>();
        for (int t = 0; t < g.TypeNames.Length; t++)
            for (int s = 0; s < Shapes.Length; s++)
                if (g.TypeNames[t].StartsWith(Shapes[s].Prefix, StringComparison.Ordinal) && !g.TypeNames[t].EndsWith(']'))
                {
                    shapeOf[t] = s;
                    break;
                }
        var byKey = new Dictionary<(string, string), WastedCapacityRecord>();
        for (int v = 0; v < g.ObjectCount && shapeOf.Count > 0; v++)
        {
            if (!shapeOf.TryGetValue(g.TypeOf[v], out int s) || !g.IsLive(v) || Unused(g, v, Shapes[s]) is not { } unused)
                continue;
            var key = (g.TypeNames[g.TypeOf[v]], Owner(g, v));
            if (!byKey.TryGetValue(key, out var record))
                byKey[key] = record = new WastedCapacityRecord { Type = key.Item1, Owner = key.Item2 };
            record.Collections++;
            record.Capacity += unused.Capacity;
            record.Used += unused.Used;
            record.WastedBytes += unused.Bytes;
            if (unused.Bytes > record.ExampleWastedBytes)
            {
                record.ExampleWastedBytes = unused.Bytes;
                record.Example = HeapJson.Hex(g.Addresses[v]);
            }
        }
        return byKey.Values.Where(r => r.WastedBytes > 0).OrderByDescending(r => r.WastedBytes)
            .Take(top > 0 ? top : int.MaxValue).ToList();
    }

    private static (long Capacity, long Used, long Bytes)? Unused(HeapGraph g, int v,
        (string Prefix, string Count, string Storage, string? Free) shape)
    {
        var obj = g.Heap.GetObject(g.Addresses[v]);
        if (!obj.IsValid || !obj.TryReadField(shape.Count, out int count)) return null;
        int free = 0;
        if (shape.Free is { } freeField && !obj.TryReadField(freeField, out free)) return null;
        if (!obj.TryReadObjectField(shape.Storage, out ClrObject storage) || storage.IsNull || !storage.IsArray
            || storage.Type is null)
            return null;
        long capacity = storage.AsArray().Length, used = Math.Max(0, count - free);
        return (capacity, used, Math.Max(0, capacity - used) * storage.Type.ComponentSize);
    }

    private static string Owner(HeapGraph g, int v)
    {
        int u = g.Idom[v];
        for (int step = 0; step < MaxOwnerSteps && u >= 0 && u < g.ObjectCount; step++, u = g.Idom[u])
        {
            string name = g.TypeNames[g.TypeOf[u]];
            if (!name.EndsWith(']') && !name.StartsWith("System.Collections.", StringComparison.Ordinal))
                return name;
        }
        return "a root";
    }
}
