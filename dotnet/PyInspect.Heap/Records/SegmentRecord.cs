namespace PyInspect.Heap;

/// <summary>One GC segment or region: kind, address range, bytes in objects and in free space.</summary>
public sealed class SegmentRecord
{
    public string Kind { get; set; } = "";
    public string Start { get; set; } = "";
    public string End { get; set; } = "";
    public long Size { get; set; }
    public long Committed { get; set; }
    public long ObjectBytes { get; set; }
    public long FreeBytes { get; set; }
    public long ObjectCount { get; set; }
    public long PinnedObjects { get; set; }
}
