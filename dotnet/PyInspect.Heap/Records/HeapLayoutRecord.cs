namespace PyInspect.Heap;

/// <summary>Generations and segments of the GC heap, from the snapshot walk.</summary>
public sealed class HeapLayoutRecord
{
    public List<GenerationRecord> Generations { get; set; } = new();
    public List<SegmentRecord> Segments { get; set; } = new();
}
