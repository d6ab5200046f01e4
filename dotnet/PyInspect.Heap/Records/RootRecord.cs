namespace PyInspect.Heap;

/// <summary>Who holds a root: kind (static, handle, pinned, stack, finalizer, other), name, OS thread id for stack roots.</summary>
public sealed class RootRecord
{
    public string Kind { get; set; } = "";
    public string Name { get; set; } = "";
    public int? Thread { get; set; }
}
