namespace PyInspect.Heap;

/// <summary>collection_analyze's numericStats: values as text in the element type's own form.</summary>
public sealed class NumericStatsRecord
{
    public string Min { get; set; } = "";
    public string Max { get; set; } = "";
    public string Average { get; set; } = "";
    public string Sum { get; set; } = "";
}
