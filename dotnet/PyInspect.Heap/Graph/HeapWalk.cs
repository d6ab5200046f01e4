using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Heap statistics by type (free space included, as "Free"), taken by the same walk as
/// the graph (<see cref="SegmentWalker"/>, without references) and advanced in batches so
/// a caller can show progress: each <see cref="Step"/> merges walked segments until N
/// more objects; progress is measured in heap bytes. Names are resolved once per type.
/// </summary>
public sealed class HeapWalk
{
    private readonly SegmentPipeline _pipeline;
    private readonly Dictionary<ClrType, long[]> _byType = new(ReferenceEqualityComparer.Instance);
    private readonly List<string> _problems = new();
    private readonly List<SegmentStopRecord> _stops = new();
    private bool _done;

    internal HeapWalk(ClrHeap heap, IDataReader reader)
    {
        if (!heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        TotalBytes = heap.Segments.Sum(s => (long)s.ObjectRange.Length);
        var layouts = new TypeLayouts(heap, reader);
        var contexts = HeapGraphBuilder.AllocationContexts(heap);
        _pipeline = new SegmentPipeline(heap.Segments, () => new SegmentWalker(reader, layouts, contexts, references: false, includeFree: true));
    }

    public long TotalBytes { get; }
    public long WalkedBytes { get; private set; }

    /// <summary>Where and why the walk stopped early in a segment (the statistics miss what follows).</summary>
    public IReadOnlyList<string> Problems => _problems;

    /// <summary>Merge walked segments until at least maxObjects more objects; true once the whole heap was walked.</summary>
    public bool Step(int maxObjects)
    {
        long visited = 0;
        while (!_done && visited < maxObjects)
        {
            var scan = _pipeline.Next();
            if (scan is null)
            {
                _done = true;
                WalkedBytes = TotalBytes;
                break;
            }
            var slots = scan.Types.Select(t => _byType.TryGetValue(t.Type, out var slot) ? slot : _byType[t.Type] = new long[2]).ToArray();
            var typeOf = scan.TypeOf.Span;
            var sizes = scan.Sizes.Span;
            for (int i = 0; i < typeOf.Length; i++)
            {
                var slot = slots[typeOf[i]];
                slot[0]++;
                slot[1] += sizes[i];
            }
            visited += typeOf.Length;
            if (scan.Problem is not null)
                _problems.Add(scan.Problem);
            if (scan.Stopped is not null)
                _stops.Add(scan.Stopped);
            WalkedBytes = Math.Min(TotalBytes, WalkedBytes + (long)scan.Tally.Segment.ObjectRange.Length);
            _pipeline.Return(scan);
        }
        return _done;
    }

    /// <summary>The segments the walk had to stop in (their unread rest).</summary>
    public IReadOnlyList<SegmentStopRecord> Stops => _stops;

    /// <summary>Whether the walk read the whole heap, as JSON (<see cref="CompletenessRecord"/>).</summary>
    public string CompletenessJson() => HeapJson.Serialize(new CompletenessRecord { StoppedSegments = _stops.ToList() }.Settle());

    /// <summary>The statistics so far as JSON [{type, count, totalSize}], largest total first.</summary>
    public string ResultJson()
    {
        var merged = new Dictionary<string, TypeStatRecord>();
        foreach (var (type, slot) in _byType)
        {
            string name = type.Name ?? $"<unknown type {HeapJson.Hex(type.MethodTable)}>";
            if (!merged.TryGetValue(name, out var record))
                merged[name] = record = new TypeStatRecord { Type = name };
            record.Count += slot[0];
            record.TotalSize += slot[1];
        }
        var ordered = merged.Values.OrderByDescending(r => r.TotalSize).ThenBy(r => r.Type, StringComparer.Ordinal).ToList();
        return HeapJson.Serialize(ordered);
    }
}
