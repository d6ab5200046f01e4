namespace PyInspect.Heap;

/// <summary>One string value held by several string objects, and the bytes all but one copy waste.</summary>
public sealed class DuplicateStringRecord
{
    public string Value { get; set; } = "";
    public long Count { get; set; }
    public long Size { get; set; }
    public long WastedBytes { get; set; }
}
