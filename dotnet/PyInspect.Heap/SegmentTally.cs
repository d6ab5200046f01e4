using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>Bytes in objects and in free space per segment, counted during the snapshot walk.</summary>
internal sealed class SegmentTally
{
    public SegmentTally(ClrSegment segment)
    {
        Segment = segment;
    }

    public ClrSegment Segment { get; }
    public long ObjectBytes { get; set; }
    public long FreeBytes { get; set; }
    public long ObjectCount { get; set; }

    /// <summary>Free bytes per generation inside this segment (ephemeral segments hold several).</summary>
    public Dictionary<Generation, long> FreeByGeneration { get; } = new();
}
