namespace PyInspect.Heap;

/// <summary>
/// Where a graph's arrays live: in memory, or, when the analysis would not fit, in files of
/// a work folder mapped into memory (the kernel then pages them to disk instead of the
/// process running out of memory). Decided once per build from the heap's size; counts the
/// bytes its arrays hold now and at most (the build's peak).
/// </summary>
public sealed class ArrayStore
{
    /// <summary>Graph memory per byte of heap, as measured on an application-shaped heap
    /// (about 40 bytes per object of 40 bytes at the peak, the process's own included, and a
    /// margin): the estimate a limit is checked against.</summary>
    public const double BytesPerHeapByte = 1.2;

    private long _current;
    private long _peak;

    private ArrayStore(string? workFolder)
    {
        WorkFolder = workFolder;
    }

    public static ArrayStore InMemory { get; } = new(null);

    /// <summary>The store for a heap of heapBytes: in files under workFolder when its estimate
    /// exceeds memoryLimit (0: the machine's available memory), else in memory.</summary>
    public static ArrayStore For(long heapBytes, string? workFolder, long memoryLimit)
    {
        long limit = memoryLimit > 0 ? memoryLimit : MemoryBudget.Available();
        if (heapBytes * BytesPerHeapByte <= limit)
            return new ArrayStore(null);
        string folder = string.IsNullOrEmpty(workFolder) ? Path.GetTempPath() : workFolder;
        if (!Directory.Exists(folder))
            throw new HeapTargetException("INVALID_PARAMETER", $"work folder {folder} does not exist");
        return new ArrayStore(folder);
    }

    /// <summary>The folder holding the arrays' files, or null when they are in memory.</summary>
    public string? WorkFolder { get; }

    public bool OnDisk => WorkFolder is not null;

    /// <summary>Bytes mapped by this store's arrays now, and at most so far.</summary>
    public long CurrentBytes => Interlocked.Read(ref _current);

    public long PeakBytes => Interlocked.Read(ref _peak);

    internal MappedArray<T> New<T>(long capacity) where T : unmanaged => new(this, capacity);

    /// <summary>A new array of count elements, all zero.</summary>
    internal MappedArray<T> Sized<T>(long count) where T : unmanaged
    {
        var array = New<T>(count);
        array.Resize(count);
        return array;
    }

    internal int OpenBacking() => WorkFolder is null ? -1 : Libc.OpenUnlinked(WorkFolder);

    internal void Track(long delta)
    {
        long now = Interlocked.Add(ref _current, delta);
        long peak;
        while (now > (peak = Interlocked.Read(ref _peak)) && Interlocked.CompareExchange(ref _peak, now, peak) != peak) { }
    }
}