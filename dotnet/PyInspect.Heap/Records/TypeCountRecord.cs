namespace PyInspect.Heap;

/// <summary>How many elements of an object collection have one runtime type ("null" counts nulls).</summary>
public sealed class TypeCountRecord
{
    public string TypeName { get; set; } = "";
    public int Count { get; set; }
}
