namespace PyInspect.Heap;

/// <summary>One object on a retention path and the field (or [index]) of the previous object that holds it.</summary>
public sealed class PathStepRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public string? Field { get; set; }
}
