namespace PyInspect.Heap;

/// <summary>Type statistics, retained sizes and instances, read from a built <see cref="HeapGraph"/>.</summary>
internal static class GraphQueries
{
    public static GraphSummaryRecord Summary(HeapGraph g)
    {
        var s = new GraphSummaryRecord
        {
            Objects = g.ObjectCount, Edges = g.Offsets[g.ObjectCount], Roots = g.Roots.Count,
            UnreadableObjects = g.UnreadableObjects, UnresolvedReferences = g.UnresolvedReferences, Types = g.TypeNames.Length,
            SkippedThreads = g.SkippedThreads, WorkFolder = g.WorkFolder,
        };
        var idom = g.Idom.Span;
        var sizes = g.Sizes.Narrow;
        for (int v = 0; v < sizes.Length; v++)
        {
            long size = g.Sizes.Wide(v, sizes[v]);
            if (idom[v] >= 0) { s.LiveObjects++; s.LiveBytes += size; }
            else { s.DeadObjects++; s.DeadBytes += size; }
        }
        return s;
    }

    /// <summary>which: 0 every object, 1 live, 2 dead; largest total size first.</summary>
    public static List<GraphTypeRecord> TypeStats(HeapGraph g, int which, int top)
    {
        var records = new GraphTypeRecord[g.TypeNames.Length];
        for (int t = 0; t < records.Length; t++)
            records[t] = new GraphTypeRecord { Type = g.TypeNames[t], RetainedSize = g.RetainedByType[t] };
        var idom = g.Idom.Span;
        var sizes = g.Sizes.Narrow;
        var typeOf = g.TypeOf;
        for (int v = 0; v < sizes.Length; v++)
        {
            bool live = idom[v] >= 0;
            long size = g.Sizes.Wide(v, sizes[v]);
            var r = records[typeOf[v]];
            if (live) { r.LiveCount++; r.LiveSize += size; }
            if (which == 0 || (which == 1) == live) { r.Count++; r.TotalSize += size; }
        }
        return Merge(records).Where(r => r.Count > 0)
            .OrderByDescending(r => r.TotalSize).ThenBy(r => r.Type, StringComparer.Ordinal)
            .Take(top > 0 ? top : int.MaxValue).ToList();
    }

    /// <summary>Types of one name (generic instantiations from several modules) counted once.</summary>
    private static IEnumerable<GraphTypeRecord> Merge(GraphTypeRecord[] records)
    {
        var merged = new Dictionary<string, GraphTypeRecord>();
        foreach (var r in records)
        {
            if (!merged.TryGetValue(r.Type, out var m))
            {
                merged[r.Type] = r;
                continue;
            }
            m.Count += r.Count; m.TotalSize += r.TotalSize; m.RetainedSize += r.RetainedSize;
            m.LiveCount += r.LiveCount; m.LiveSize += r.LiveSize;
        }
        return merged.Values;
    }

    public static List<RetainedRecord> Retained(HeapGraph g, string addresses, int top)
    {
        var wanted = addresses.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (wanted.Length > 0)
            return wanted.Select(a => Record(g, g.Require(ParseAddress(a)))).ToList();
        return TopRetainers(g, top > 0 ? top : 20).Select(v => Record(g, v)).ToList();
    }

    public static List<GraphTypeRecord> RetainedByType(HeapGraph g, int top)
    {
        var all = TypeStats(g, 1, 0);
        return all.OrderByDescending(r => r.RetainedSize).ThenBy(r => r.Type, StringComparer.Ordinal)
            .Take(top > 0 ? top : int.MaxValue).ToList();
    }

    public static List<InstanceRecord> Instances(HeapGraph g, string typeName, int start, int count)
    {
        if (start < 0 || count < 1)
            throw new HeapTargetException("INVALID_PARAMETER", $"start must be >= 0 and count >= 1, got {start}, {count}");
        var types = new HashSet<int>(Enumerable.Range(0, g.TypeNames.Length).Where(t => g.TypeNames[t] == typeName));
        if (types.Count == 0)
            throw new HeapTargetException("INVALID_PARAMETER", $"no object of type {typeName} in this snapshot");
        var result = new List<InstanceRecord>();
        int seen = 0;
        for (int v = 0; v < g.ObjectCount && result.Count < count; v++)
        {
            if (!types.Contains(g.TypeOf[v]) || seen++ < start)
                continue;
            result.Add(new InstanceRecord
            {
                Address = HeapJson.Hex(g.Addresses[v]), Type = typeName, Size = g.Sizes[v],
                Generation = g.Generations[v], Live = g.IsLive(v), RetainedSize = g.Retained[v],
            });
        }
        return result;
    }

    internal static RetainedRecord Record(HeapGraph g, int v)
    {
        int d = g.Idom[v];
        return new RetainedRecord
        {
            Address = HeapJson.Hex(g.Addresses[v]), Type = g.TypeNames[g.TypeOf[v]], Size = g.Sizes[v],
            RetainedSize = g.Retained[v], Live = d >= 0, Generation = g.Generations[v],
            Dominator = d < 0 ? null : d == g.SuperRoot ? "root" : HeapJson.Hex(g.Addresses[d]),
        };
    }

    /// <summary>The k live objects retaining most, largest first (a bounded min-heap over every object).</summary>
    private static List<int> TopRetainers(HeapGraph g, int k)
    {
        var heap = new PriorityQueue<int, long>();
        var idom = g.Idom.Span;
        var retained = g.Retained;
        long least = long.MinValue;
        for (int v = 0; v < g.ObjectCount; v++)
        {
            if (idom[v] < 0)
                continue;
            long value = retained[v];
            if (heap.Count < k)
            {
                heap.Enqueue(v, value);
                heap.TryPeek(out _, out least);
            }
            else if (value > least)
            {
                heap.EnqueueDequeue(v, value);
                heap.TryPeek(out _, out least);
            }
        }
        var result = new List<int>(heap.Count);
        while (heap.TryDequeue(out int v, out _))
            result.Add(v);
        result.Reverse();
        return result;
    }

    internal static ulong ParseAddress(string text)
    {
        string digits = text.StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? text[2..] : text;
        if (!ulong.TryParse(digits, System.Globalization.NumberStyles.HexNumber, null, out ulong address) || address == 0)
            throw new HeapTargetException("INVALID_PARAMETER", $"not an address: {text}");
        return address;
    }
}
