namespace PyInspect.Heap;

/// <summary>A call named an object the dump reader no longer holds (released, or the target closed).</summary>
public sealed class ReleasedObjectException(long id)
    : Exception("this heap object was released or the target closed")
{
    public long Id { get; } = id;
}
