namespace PyInspect.Heap;

/// <summary>One field in object_summarize: collections carry their count, element type and
/// their first elements (max_preview_items of them, as text).</summary>
public sealed class SummaryFieldRecord
{
    public string Name { get; set; } = "";
    public string Type { get; set; } = "";
    public string Value { get; set; } = "";
    public int? CollectionCount { get; set; }
    public string? CollectionElementType { get; set; }
    public List<string>? CollectionPreview { get; set; }
}
