namespace PyInspect.Heap;

/// <summary>
/// The thread pool as the runtime counts it (SOS's threadpool): worker threads active,
/// idle and retired, the limits, CPU use, and which implementation runs it. The portable
/// pool (.NET 6+ on Linux) has no I/O completion threads: I/O completes on its own threads.
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
}
