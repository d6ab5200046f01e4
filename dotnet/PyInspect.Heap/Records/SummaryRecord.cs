namespace PyInspect.Heap;

/// <summary>object_summarize's summary of one heap object (instance fields, base classes included).</summary>
public sealed class SummaryRecord
{
    public string Address { get; set; } = "";
    public string TypeName { get; set; } = "";
    public long Size { get; set; }
    public bool IsNull { get; set; }
    public int TotalFieldCount { get; set; }
    public int InaccessibleFieldCount { get; set; }
    public List<SummaryFieldRecord> Fields { get; set; } = new();
    public List<string> NullFields { get; set; } = new();
    public List<InterestingFieldRecord> InterestingFields { get; set; } = new();
}
