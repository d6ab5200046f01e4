namespace PyInspect.Heap;

/// <summary>Objects of one type registered for finalization, and how many of them are ready (queued, rooted only by the finalizer).</summary>
public sealed class FinalizerRecord
{
    public string Type { get; set; } = "";
    public long Count { get; set; }
    public long TotalSize { get; set; }
    public long Ready { get; set; }
}
