namespace PyInspect.Heap;

/// <summary>A thread named in another answer (a lock's owner or waiter): its ids and name.</summary>
public sealed class ThreadRefRecord
{
    public long OsThreadId { get; set; }
    public int ManagedThreadId { get; set; }
    public string? Name { get; set; }
}
