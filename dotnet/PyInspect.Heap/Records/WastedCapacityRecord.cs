namespace PyInspect.Heap;

/// <summary>Collections of one type under one owner whose storage arrays hold unused slots.</summary>
public sealed class WastedCapacityRecord
{
    public string Type { get; set; } = "";
    public string Owner { get; set; } = "";
    public long Collections { get; set; }
    public long Capacity { get; set; }
    public long Used { get; set; }
    public long WastedBytes { get; set; }
    public string Example { get; set; } = "";
    public long ExampleWastedBytes { get; set; }
}
