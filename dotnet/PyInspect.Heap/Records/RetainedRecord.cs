namespace PyInspect.Heap;

/// <summary>One object with its own size, the bytes it retains, and its immediate dominator.</summary>
public sealed class RetainedRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public long Size { get; set; }
    public long RetainedSize { get; set; }
    public bool Live { get; set; }
    public string? Dominator { get; set; }
    public int Generation { get; set; }
}
