namespace PyInspect.Heap;

/// <summary>
/// One lock: a monitor (kind "monitor", thin or in a sync block, as `lock` takes it), a
/// System.Threading.Lock ("lock") or a SemaphoreSlim ("semaphore", no owner). Waiters are
/// the threads blocked entering it, read off their stacks (the object their blocking frames hold).
/// </summary>
public sealed class LockRecord
{
    public string Object { get; set; } = "";
    public string Type { get; set; } = "";
    public string Kind { get; set; } = "monitor";
    public bool? ThinLock { get; set; }
    public ThreadRefRecord? Owner { get; set; }
    public int Recursion { get; set; }
    public int? SyncBlockWaiters { get; set; }
    public List<ThreadRefRecord> Waiters { get; set; } = new();
    public bool Deadlock { get; set; }
}
