namespace PyInspect.Heap;

/// <summary>
/// One heap object as described by <see cref="HeapTarget.DescribeObject"/>. Size is
/// ClrMD's ClrObject.Size (base size plus components). For arrays, <see cref="Fields"/>
/// holds the first elements, named like "[0]" or "[1, 2]", with offsets from the array.
/// </summary>
public sealed class ObjectRecord
{
    public string Address { get; set; } = "";
    public string TypeName { get; set; } = "";
    public long Size { get; set; }
    public string Value { get; set; } = "";
    public List<FieldRecord> Fields { get; set; } = new();
    public bool IsNull { get; set; }
    public bool HasCircularRef { get; set; }
    public bool Truncated { get; set; }
    public bool IsString { get; set; }
    public bool IsArray { get; set; }
    public int? ArrayLength { get; set; }
    public int? Rank { get; set; }
    public int[]? Dimensions { get; set; }
    public string? ElementTypeName { get; set; }
    public string? StringValue { get; set; }
}
