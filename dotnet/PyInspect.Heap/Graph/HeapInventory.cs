using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>Duplicate strings, generations and segments, and the finalizer queue of a snapshot.</summary>
internal static class HeapInventory
{
    private const int MaxStringChars = 1 << 20;

    /// <summary>String values held by more than one object, most wasted bytes first; liveOnly
    /// counts only strings reachable from roots (garbage wastes nothing for long).</summary>
    public static List<DuplicateStringRecord> DuplicateStrings(HeapGraph g, int top, bool liveOnly = false)
    {
        var byValue = new Dictionary<string, DuplicateStringRecord>(StringComparer.Ordinal);
        if (g.StringType < 0)
            return new List<DuplicateStringRecord>();
        for (int v = 0; v < g.ObjectCount; v++)
        {
            if (g.TypeOf[v] != g.StringType || (liveOnly && !g.IsLive(v)))
                continue;
            string? text = g.Heap.GetObject(g.Addresses[v]).AsString(MaxStringChars);
            if (text is null)
                continue;
            if (!byValue.TryGetValue(text, out var record))
                byValue[text] = record = new DuplicateStringRecord { Value = text, Size = g.Sizes[v] };
            record.Count++;
        }
        return byValue.Values.Where(r => r.Count > 1)
            .Select(r => { r.WastedBytes = (r.Count - 1) * r.Size; return r; })
            .OrderByDescending(r => r.WastedBytes).ThenBy(r => r.Value, StringComparer.Ordinal)
            .Take(top > 0 ? top : int.MaxValue).ToList();
    }

    public static HeapLayoutRecord Layout(HeapGraph g)
    {
        var layout = new HeapLayoutRecord();
        var byGeneration = new SortedDictionary<Generation, GenerationRecord>();
        GenerationRecord Of(Generation gen) => byGeneration.TryGetValue(gen, out var r) ? r
            : byGeneration[gen] = new GenerationRecord { Generation = Name(gen) };
        foreach (var tally in g.Segments)
        {
            var seg = tally.Segment;
            layout.Segments.Add(new SegmentRecord
            {
                Kind = seg.Kind.ToString(), Start = HeapJson.Hex(seg.Start), End = HeapJson.Hex(seg.End),
                Size = (long)seg.ObjectRange.Length, Committed = (long)seg.CommittedMemory.Length,
                ObjectBytes = tally.ObjectBytes, FreeBytes = tally.FreeBytes, ObjectCount = tally.ObjectCount,
            });
            foreach (var (gen, free) in tally.FreeByGeneration)
            {
                Of(gen).FreeBytes += free;
                Of(gen).Size += free;
            }
        }
        var generations = new byte[1 << 16];
        for (int start = 0; start < g.ObjectCount; start += generations.Length)
        {
            int count = g.Generations.CopyTo(start, generations);
            for (int i = 0; i < count; i++)
            {
                var r = Of((Generation)generations[i]);
                r.Size += g.Sizes[start + i];
                r.ObjectCount++;
            }
        }
        foreach (int v in g.Roots.Where(r => r.Pinned).Select(r => r.Object).Distinct())
        {
            Of((Generation)g.Generations[v]).PinnedObjects++;
            int segment = g.Segments.FindIndex(t => t.Segment.ObjectRange.Contains(g.Addresses[v]));
            if (segment >= 0)
                layout.Segments[segment].PinnedObjects++;  // where the pins sit: free space beside them cannot be compacted
        }
        foreach (var r in byGeneration.Values)
            r.Fragmentation = r.Size == 0 ? 0 : Math.Round((double)r.FreeBytes / r.Size, 4);
        layout.Generations = byGeneration.Values.ToList();
        return layout;
    }

    /// <summary>Per type: objects registered for finalization, and those ready (queued).</summary>
    public static List<FinalizerRecord> Finalizer(HeapGraph g)
    {
        var ready = new HashSet<ulong>(g.Heap.EnumerateFinalizerRoots().Select(r => r.Object.Address));
        var byType = new Dictionary<string, FinalizerRecord>();
        var seen = new HashSet<ulong>();
        foreach (var obj in g.Heap.EnumerateFinalizableObjects().Concat(g.Heap.EnumerateFinalizerRoots().Select(r => r.Object)))
        {
            if (!seen.Add(obj.Address))
                continue;
            string type = obj.Type?.Name ?? "<unknown type>";
            if (!byType.TryGetValue(type, out var record))
                byType[type] = record = new FinalizerRecord { Type = type };
            record.Count++;
            record.TotalSize += (long)obj.Size;
            if (ready.Contains(obj.Address))
                record.Ready++;
        }
        return byType.Values.OrderByDescending(r => r.Count).ThenBy(r => r.Type, StringComparer.Ordinal).ToList();
    }

    private static string Name(Generation gen) => gen switch
    {
        Generation.Generation0 => "gen0", Generation.Generation1 => "gen1", Generation.Generation2 => "gen2",
        Generation.Large => "loh", Generation.Pinned => "poh", Generation.Frozen => "frozen", _ => "unknown",
    };
}
