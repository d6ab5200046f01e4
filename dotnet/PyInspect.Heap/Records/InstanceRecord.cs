namespace PyInspect.Heap;

/// <summary>One instance of a type: where, how big, in which generation, what it retains.</summary>
public sealed class InstanceRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public long Size { get; set; }
    public int Generation { get; set; }
    public bool Live { get; set; }
    public long RetainedSize { get; set; }
}
