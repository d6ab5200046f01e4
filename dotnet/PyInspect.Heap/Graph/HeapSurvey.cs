using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// One walk of the heap for a triage answer (locks, exceptions, async chains): whether it read
/// the heap whole (the segments it had to stop in, which every such answer states) and, in the
/// same pass, the objects the answer looks at: those of the types it asks for and, when asked,
/// those whose header holds a thin lock. It is the stats walk (<see cref="SegmentWalker"/> on
/// every core, free objects included), which yields exactly ClrMD's objects segment by segment
/// in address order, so the objects come in the order ClrMD's own walk gives them.
/// </summary>
public sealed class HeapSurvey
{
    private readonly List<SegmentStopRecord> _stops = new();
    private readonly List<ClrObject> _wanted = new();
    private readonly List<ClrObject> _thinLocked = new();

    private HeapSurvey()
    {
    }

    /// <summary>The segments the walk had to stop in (their unread rest).</summary>
    public IReadOnlyList<SegmentStopRecord> Stops => _stops;

    /// <summary>The objects of the types asked for, in heap order.</summary>
    public IReadOnlyList<ClrObject> Wanted => _wanted;

    /// <summary>The objects whose header holds a thin lock, in heap order (when asked for).</summary>
    public IReadOnlyList<ClrObject> ThinLocked => _thinLocked;

    /// <summary>Walk the whole heap once. wanted: the types whose objects to keep (asked once per
    /// type), or null for none; thinLocks: keep the thin-locked objects too.</summary>
    internal static HeapSurvey Walk(ClrHeap heap, IDataReader reader, Func<ClrType, bool>? wanted, bool thinLocks)
    {
        if (!heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        var layouts = new TypeLayouts(heap, reader);
        var contexts = HeapGraphBuilder.AllocationContexts(heap);
        var pipeline = new SegmentPipeline(heap.Segments,
            () => new SegmentWalker(reader, layouts, contexts, references: false, includeFree: true, thinLocks));
        var survey = new HeapSurvey();
        var isWanted = new Dictionary<ClrType, bool>(ReferenceEqualityComparer.Instance);
        while (pipeline.Next() is { } scan)
        {
            if (wanted is not null)
                survey.KeepWanted(scan, type => isWanted.TryGetValue(type, out bool yes) ? yes : isWanted[type] = wanted(type), heap);
            foreach (ulong address in scan.ThinLocked.Span)
                survey._thinLocked.Add(heap.GetObject(address));
            if (scan.Stopped is not null)
                survey._stops.Add(scan.Stopped);
            pipeline.Return(scan);
        }
        pipeline.Release();
        return survey;
    }

    /// <summary>read() and <see cref="Walk"/> at once, the walk on a thread of its own: ClrMD
    /// serializes its stateful DAC calls, and the walk reads memory in blocks and types through
    /// its own lock. The walk is waited for even when read fails, so nothing reads the target
    /// once the caller is done.</summary>
    internal static (T Read, HeapSurvey Survey) Beside<T>(Func<T> read, ClrHeap heap, IDataReader reader,
        Func<ClrType, bool>? wanted, bool thinLocks)
    {
        var survey = Task.Factory.StartNew(() => Walk(heap, reader, wanted, thinLocks),
            CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        T result;
        try
        {
            result = read();
        }
        catch
        {
            try
            {
                survey.Wait();
            }
            catch (AggregateException)
            {
                // read's failure is the answer
            }
            throw;
        }
        return (result, survey.GetAwaiter().GetResult());
    }

    private void KeepWanted(SegmentScan scan, Func<ClrType, bool> wanted, ClrHeap heap)
    {
        var keep = new bool[scan.Types.Count];
        bool any = false;
        for (int i = 0; i < keep.Length; i++)
            any |= keep[i] = wanted(scan.Types[i].Type);
        if (!any)
            return;
        var addresses = scan.Addresses.Span;
        var typeOf = scan.TypeOf.Span;
        for (int i = 0; i < typeOf.Length; i++)
            if (keep[typeOf[i]])
                _wanted.Add(heap.GetObject(addresses[i], scan.Types[typeOf[i]].Type));
    }
}
