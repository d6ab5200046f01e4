namespace PyInspect.Heap;

/// <summary>One type in a heap graph: its objects (all, live or dead), their size, and the bytes they retain.</summary>
public sealed class GraphTypeRecord
{
    public string Type { get; set; } = "";
    public long Count { get; set; }
    public long TotalSize { get; set; }
    public long RetainedSize { get; set; }
    public long LiveCount { get; set; }
    public long LiveSize { get; set; }
}
