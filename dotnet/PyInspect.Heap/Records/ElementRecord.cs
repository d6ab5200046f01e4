namespace PyInspect.Heap;

/// <summary>One previewed element: its position in enumeration order, value text and type.</summary>
public sealed class ElementRecord
{
    public int Index { get; set; }
    public string Value { get; set; } = "";
    public string Type { get; set; } = "";
}
