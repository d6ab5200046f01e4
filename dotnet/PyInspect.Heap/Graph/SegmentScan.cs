using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// One segment's (or region's) objects as the walk found them, in address order, with
/// their types numbered locally (the builder maps them to the graph's type numbers).
/// Reused for the next segment once merged. <see cref="Problem"/> says why the walk
/// stopped before the segment's end (unreadable memory, an unknown MethodTable): the
/// objects after that point are missing and the answer must say it is incomplete.
/// </summary>
internal sealed class SegmentScan
{
    private readonly Dictionary<TypeLayout, int> _localIndex = new(ReferenceEqualityComparer.Instance);

    public SegmentTally Tally { get; private set; } = null!;
    public List<TypeLayout> Types { get; } = new();
    public GrowBuffer<ulong> Addresses { get; } = new();
    public GrowBuffer<int> TypeOf { get; } = new();
    public GrowBuffer<long> Sizes { get; } = new();
    public GrowBuffer<byte> Generations { get; } = new();
    public GrowBuffer<int> EdgeCounts { get; } = new();
    public GrowBuffer<ulong> Edges { get; } = new();

    /// <summary>The objects whose header holds a thin lock (only when the walker was asked for them).</summary>
    public GrowBuffer<ulong> ThinLocked { get; } = new();
    public long WalkedBytes { get; set; }
    public string? Problem { get; private set; }

    /// <summary>The same stop as a record: where the walk stopped, and the segment's unread rest.</summary>
    public SegmentStopRecord? Stopped { get; private set; }

    public void Reset(ClrSegment segment)
    {
        Tally = new SegmentTally(segment);
        Types.Clear();
        _localIndex.Clear();
        Addresses.Clear();
        TypeOf.Clear();
        Sizes.Clear();
        Generations.Clear();
        EdgeCounts.Clear();
        Edges.Clear();
        ThinLocked.Clear();
        WalkedBytes = 0;
        Problem = null;
        Stopped = null;
    }

    public int LocalIndex(TypeLayout layout)
    {
        if (!_localIndex.TryGetValue(layout, out int index))
        {
            index = Types.Count;
            Types.Add(layout);
            _localIndex[layout] = index;
        }
        return index;
    }

    public void Stop(ulong address, string why)
    {
        var segment = Tally.Segment;
        Problem = $"{segment.Kind} segment {HeapJson.Hex(segment.Start)}: walk stopped at {HeapJson.Hex(address)}: {why}";
        Stopped = new SegmentStopRecord
        {
            Kind = segment.Kind.ToString(), Start = HeapJson.Hex(segment.ObjectRange.Start),
            End = HeapJson.Hex(segment.ObjectRange.End), StoppedAt = HeapJson.Hex(address), Reason = why,
        };
    }
}
