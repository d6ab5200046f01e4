namespace PyInspect.Heap;

/// <summary>A field whose real value is a likely bug: empty_string, nan, infinity,
/// default_datetime or default_guid.</summary>
public sealed class InterestingFieldRecord
{
    public string Name { get; set; } = "";
    public string Type { get; set; } = "";
    public string Value { get; set; } = "";
    public string Reason { get; set; } = "";
}
