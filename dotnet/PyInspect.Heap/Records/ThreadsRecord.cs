namespace PyInspect.Heap;

/// <summary>Every managed thread, and whether every stack could be read.</summary>
public sealed class ThreadsRecord
{
    public List<ThreadRecord> Threads { get; set; } = new();
    public CompletenessRecord Completeness { get; set; } = new();
}
