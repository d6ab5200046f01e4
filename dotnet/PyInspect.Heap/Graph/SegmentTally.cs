using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>Bytes in objects and in free space per segment, counted during the snapshot walk.</summary>
internal sealed class SegmentTally
{
    public SegmentTally(ClrSegment segment)
    {
        Segment = segment;
        FixedGeneration = segment.Kind switch
        {
            GCSegmentKind.Generation0 => (byte)Generation.Generation0,
            GCSegmentKind.Generation1 => (byte)Generation.Generation1,
            GCSegmentKind.Generation2 => (byte)Generation.Generation2,
            GCSegmentKind.Large => (byte)Generation.Large,
            GCSegmentKind.Pinned => (byte)Generation.Pinned,
            GCSegmentKind.Frozen => (byte)Generation.Frozen,
            _ => null,
        };
    }

    /// <summary>The generation of every object in a region (null for an ephemeral segment,
    /// which holds several generations and is asked per object).</summary>
    public byte? FixedGeneration { get; }

    public ClrSegment Segment { get; }
    public long ObjectBytes { get; set; }
    public long FreeBytes { get; set; }
    public long ObjectCount { get; set; }

    /// <summary>Free bytes per generation inside this segment (ephemeral segments hold several).</summary>
    public Dictionary<Generation, long> FreeByGeneration { get; } = new();
}
