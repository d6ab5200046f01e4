namespace PyInspect.Heap;

/// <summary>One shortest path from a root to the object asked about (steps start at the root object).</summary>
public sealed class RetentionPathRecord
{
    public RootRecord Root { get; set; } = new();
    public List<PathStepRecord> Steps { get; set; } = new();
}
