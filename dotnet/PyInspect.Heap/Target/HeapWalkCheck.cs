using System.Diagnostics;
using System.Text.Json;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Test and benchmark entries for the heap walk: ClrMD's own walk beside ours, object by
/// object (address, type, size, references in order), and each walk timed alone.
/// </summary>
public static class HeapWalkCheck
{
    /// <summary>Both walks compared as JSON: counts, the first maxDifferences differences,
    /// and where our walk stopped early (ClrMD's walk stops there too, its object untyped).
    /// Our walk is taken whole first, so ClrMD is not asked from two threads at once.</summary>
    public static string Compare(HeapTarget target, int maxDifferences)
    {
        var ours = new List<(ulong Address, TypeLayout Layout, long Size, ulong[] Edges)>();
        var problems = new List<string>();
        int segments = 0;
        var pipeline = Pipeline(target, includeFree: true);
        for (var scan = pipeline.Next(); scan is not null; scan = pipeline.Next())
        {
            segments++;
            int edgeAt = 0;
            for (int i = 0; i < scan.Addresses.Count; i++)
            {
                int count = scan.EdgeCounts.Span[i];
                ours.Add((scan.Addresses.Span[i], scan.Types[scan.TypeOf.Span[i]], scan.Sizes.Span[i],
                          scan.Edges.Span.Slice(edgeAt, count).ToArray()));
                edgeAt += count;
            }
            if (scan.Problem is not null)
                problems.Add(scan.Problem);
            pipeline.Return(scan);
        }
        var differences = new List<string>();
        void Differ(string what)
        {
            if (differences.Count < maxDifferences)
                differences.Add(what);
        }
        long clrmdUntyped = 0;
        int at = 0;
        foreach (var obj in target.Runtime.Heap.EnumerateObjects())
        {
            if (obj.Type is null)
            {
                clrmdUntyped++;
                continue;
            }
            if (at == ours.Count)
            {
                Differ($"ClrMD {HeapJson.Hex(obj.Address)} {obj.Type.Name}: our walk ended before it");
                continue;
            }
            var (address, layout, size, edges) = ours[at++];
            if (obj.Address != address || obj.Type.MethodTable != layout.MethodTable || (long)obj.Size != size)
            {
                Differ($"object {at}: ClrMD {HeapJson.Hex(obj.Address)} {obj.Type.Name} {obj.Size} B, ours {HeapJson.Hex(address)} {layout.Type.Name} {size} B");
                continue;
            }
            var clrmdEdges = obj.EnumerateReferenceAddresses(carefully: false, considerDependantHandles: false).ToArray();
            if (!edges.AsSpan().SequenceEqual(clrmdEdges))
                Differ($"object {HeapJson.Hex(address)} {layout.Type.Name}: ClrMD's references [{string.Join(", ", clrmdEdges.Select(HeapJson.Hex))}], ours [{string.Join(", ", edges.Select(HeapJson.Hex))}]");
        }
        for (; at < ours.Count; at++)
            Differ($"ours {HeapJson.Hex(ours[at].Address)} {ours[at].Layout.Type.Name}: ClrMD's walk ended before it");
        return JsonSerializer.Serialize(new Dictionary<string, object>
        {
            ["objects"] = ours.Count, ["references"] = ours.Sum(o => (long)o.Edges.Length),
            ["freeObjects"] = ours.Count(o => o.Layout.IsFree), ["segments"] = segments,
            ["differences"] = differences, ["problems"] = problems, ["clrmdUntyped"] = clrmdUntyped,
        });
    }

    /// <summary>One walk of every object and every reference, timed: "clrmd" (ClrMD's
    /// enumerators) or "ours"; JSON {objects, references, seconds}.</summary>
    public static string Time(HeapTarget target, string which)
    {
        long objects = 0, references = 0;
        var watch = Stopwatch.StartNew();
        if (which == "clrmd")
        {
            foreach (var obj in target.Runtime.Heap.EnumerateObjects())
            {
                if (obj.Type is null)
                    continue;
                objects++;
                foreach (ulong _ in obj.EnumerateReferenceAddresses(carefully: false, considerDependantHandles: false))
                    references++;
            }
        }
        else if (which == "ours")
        {
            var pipeline = Pipeline(target, includeFree: true);
            for (var scan = pipeline.Next(); scan is not null; scan = pipeline.Next())
            {
                objects += scan.Addresses.Count;
                references += scan.Edges.Count;
                pipeline.Return(scan);
            }
        }
        else
        {
            throw new HeapTargetException("INVALID_PARAMETER", $"which walk: 'clrmd' or 'ours', not '{which}'");
        }
        return JsonSerializer.Serialize(new Dictionary<string, object>
        {
            ["objects"] = objects, ["references"] = references, ["seconds"] = watch.Elapsed.TotalSeconds,
        });
    }

    private static SegmentPipeline Pipeline(HeapTarget target, bool includeFree)
    {
        var heap = target.Runtime.Heap;
        var layouts = new TypeLayouts(heap, target.DataReader);
        var contexts = HeapGraphBuilder.AllocationContexts(heap);
        return new SegmentPipeline(heap.Segments, () => new SegmentWalker(target.DataReader, layouts, contexts, references: true, includeFree));
    }
}
