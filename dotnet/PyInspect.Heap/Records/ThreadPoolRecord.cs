namespace PyInspect.Heap;

/// <summary>
/// The thread pool as the runtime counts it (SOS's threadpool): worker threads active,
/// idle and retired, the limits, CPU use, and which implementation runs it. The portable
/// pool (.NET 6+ on Linux) has no I/O completion threads: I/O completes on its own threads.
/// The queued work comes from the heap (Triage/WorkQueueReader).
/// </summary>
public sealed class ThreadPoolRecord
{
    public bool Initialized { get; set; }
    public bool Portable { get; set; }
    public int ActiveWorkerThreads { get; set; }
    public int IdleWorkerThreads { get; set; }
    public int RetiredWorkerThreads { get; set; }
    public int MinThreads { get; set; }
    public int MaxThreads { get; set; }
    public int CpuUtilization { get; set; }
    public int PoolThreadsOnStacks { get; set; }

    /// <summary>Work items queued and not started (global and local queues), by type, and the first ones.</summary>
    public int QueuedWorkItems { get; set; }
    public List<QueuedTypeRecord> QueuedByType { get; set; } = new();
    public List<QueuedItemRecord> QueuedItems { get; set; } = new();
}

/// <summary>How many queued work items of one type wait in the global queues and in local ones.</summary>
public sealed class QueuedTypeRecord
{
    public string Type { get; set; } = "";
    public int Count { get; set; }
    public int Global { get; set; }
    public int Local { get; set; }
}

/// <summary>One queued work item: its object, the queue holding it, and the method it will run when known.</summary>
public sealed class QueuedItemRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public string Queue { get; set; } = "";
    public string? Callback { get; set; }
}
