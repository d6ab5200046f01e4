namespace PyInspect.Heap;

/// <summary>What a snapshot holds and what it could not read.</summary>
public sealed class GraphSummaryRecord
{
    public long Objects { get; set; }
    public long Edges { get; set; }
    public long Roots { get; set; }
    public long LiveObjects { get; set; }
    public long LiveBytes { get; set; }
    public long DeadObjects { get; set; }
    public long DeadBytes { get; set; }
    public long UnreadableObjects { get; set; }
    public long UnresolvedReferences { get; set; }
    public long Types { get; set; }
    public long SkippedThreads { get; set; }

    /// <summary>The folder whose files held the graph's arrays (it would not fit in memory), or null.</summary>
    public string? WorkFolder { get; set; }
}
