namespace PyInspect.Heap;

/// <summary>
/// One managed thread as <see cref="HeapTarget.Threads"/> reads it: OS and managed ids, the
/// name its Thread object holds, the runtime's state flags, what it is blocked in (read off
/// its top frames) and the lock it waits for (address), its current exception and its managed stack, leaf first.
/// </summary>
public sealed class ThreadRecord
{
    public long OsThreadId { get; set; }
    public int ManagedThreadId { get; set; }
    public string? Name { get; set; }
    public List<string> State { get; set; } = new();
    public bool IsBackground { get; set; }
    public bool IsAlive { get; set; }
    public bool IsFinalizer { get; set; }
    public bool IsGc { get; set; }
    public int LockCount { get; set; }
    public string? BlockedIn { get; set; }
    public string? WaitingFor { get; set; }
    public ExceptionRecord? Exception { get; set; }
    public List<FrameRecord> Frames { get; set; } = new();

    /// <summary>Why the frames' objects were not read, when they were not.</summary>
    public string? ObjectsUnread { get; set; }
}
