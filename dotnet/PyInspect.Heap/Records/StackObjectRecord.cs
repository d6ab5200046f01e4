namespace PyInspect.Heap;

/// <summary>An object a frame's stack slot or register holds: where to go next (heap_object, paths).</summary>
public sealed class StackObjectRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public bool IsInterior { get; set; }
    public bool IsPinned { get; set; }
}
