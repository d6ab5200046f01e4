namespace PyInspect.Heap;

/// <summary>Heap statistics for one type: how many objects and their summed ClrObject.Size.</summary>
public sealed class TypeStatRecord
{
    public string Type { get; set; } = "";
    public long Count { get; set; }
    public long TotalSize { get; set; }
}
