namespace PyInspect.Heap;

/// <summary>One generation (0, 1, 2, LOH, POH, frozen): total bytes, free bytes, fragmentation, pinned objects.</summary>
public sealed class GenerationRecord
{
    public string Generation { get; set; } = "";
    public long Size { get; set; }
    public long FreeBytes { get; set; }
    public double Fragmentation { get; set; }
    public long ObjectCount { get; set; }
    public long PinnedObjects { get; set; }
}
