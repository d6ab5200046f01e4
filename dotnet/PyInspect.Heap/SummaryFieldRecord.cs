namespace PyInspect.Heap;

/// <summary>One field in object_summarize: collections carry their count and element type.</summary>
public sealed class SummaryFieldRecord
{
    public string Name { get; set; } = "";
    public string Type { get; set; } = "";
    public string Value { get; set; } = "";
    public int? CollectionCount { get; set; }
    public string? CollectionElementType { get; set; }
}
