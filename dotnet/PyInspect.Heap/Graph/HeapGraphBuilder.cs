using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Builds a <see cref="HeapGraph"/> in one heap walk, advanced in batches so the caller
/// can show progress: each object's address, type, size and generation go to parallel
/// buffers and its references to one flat buffer; the phases after the walk
/// (<see cref="GraphPhases"/>, advanced in short calls and cancellable) turn references into
/// object indices, collect the roots and compute dominators and retained sizes.
/// The walk is our own (<see cref="SegmentWalker"/>, segments on every core through a
/// <see cref="SegmentPipeline"/>, merged in address order), so object indices are in
/// address order. The hot loops here and in the graph's algorithms are compiled fully
/// optimized at once (AggressiveOptimization): on a loaded machine, tiered compilation's
/// background promotion can lag behind a whole build, leaving it in unoptimized code.
/// </summary>
public sealed class HeapGraphBuilder
{
    private readonly ClrRuntime _runtime;
    private readonly List<SegmentTally> _segments = new();
    private readonly Dictionary<ulong, int> _typeIndex = new();
    private readonly List<ClrType> _types = new();
    private readonly ArrayStore _store;
    private readonly ObjectAddresses _addresses;
    private readonly TypeIndices _typeOf;
    private readonly ObjectSizes _sizes;
    private readonly ObjectGenerations _generations;
    private readonly MappedArray<int> _edgeCounts;
    private readonly MappedArray<ulong> _edges;
    private readonly PhaseTimes _times = new();
    private readonly SegmentPipeline _pipeline;
    private readonly List<string> _problems = new();
    private readonly List<SegmentStopRecord> _stops = new();
    private readonly ReadSteps _steps;
    private bool _done;
    private GraphPhases? _phases;

    internal HeapGraphBuilder(ClrRuntime runtime, IDataReader reader, ReadSteps steps, string? workFolder = null,
                              long memoryLimit = 0)
    {
        _runtime = runtime;
        _steps = steps;
        var heap = runtime.Heap;
        if (!heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        TotalBytes = heap.Segments.Sum(s => (long)s.ObjectRange.Length);
        // A graph holds gigabytes in a few mapped arrays; an earlier graph the caller dropped
        // is unmapped now (its arrays' finalizers), before this build maps as much again.
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
        _store = ArrayStore.For(TotalBytes, workFolder, memoryLimit);
        // Reserved for the most the heap can hold (objects of at least 24 bytes, references
        // of 8): pages never written cost nothing, and the arrays never move while growing.
        long maxObjects = TotalBytes / 24 + 1;
        _addresses = new ObjectAddresses(_store, maxObjects);
        _typeOf = new TypeIndices(_store, maxObjects);
        _sizes = new ObjectSizes(_store, maxObjects);
        _generations = new ObjectGenerations(_store, maxObjects);
        _edgeCounts = _store.New<int>(maxObjects + 2);
        _edges = _store.New<ulong>(TotalBytes / 8 + 1);
        var layouts = new TypeLayouts(heap, reader);
        var contexts = AllocationContexts(heap);
        _pipeline = new SegmentPipeline(heap.Segments, () => new SegmentWalker(reader, layouts, contexts, references: true, includeFree: false));
    }

    public long TotalBytes { get; }
    public long WalkedBytes { get; private set; }
    public long ObjectCount => _addresses.Count;

    /// <summary>Where the arrays live (memory or a work folder) and their peak bytes.</summary>
    public ArrayStore Store => _store;

    // what the walk made, for the phases after it
    internal ClrRuntime Runtime => _runtime;
    internal ObjectAddresses Addresses => _addresses;
    internal TypeIndices TypeOf => _typeOf;
    internal ObjectSizes Sizes => _sizes;
    internal ObjectGenerations Generations => _generations;
    internal MappedArray<int> EdgeCounts => _edgeCounts;
    internal MappedArray<ulong> Edges => _edges;
    internal List<ClrType> Types => _types;
    internal List<SegmentTally> Segments => _segments;
    internal List<SegmentStopRecord> Stops => _stops;
    internal ReadSteps Steps => _steps;
    internal PhaseTimes Times => _times;

    /// <summary>The phase under way, in an answer's words ("the dominator pass").</summary>
    public string Phase => _phases?.Phase ?? "the walk";

    /// <summary>Bytes the build's arrays hold now (none once cancelled).</summary>
    public long ArrayBytes => _store.CurrentBytes;

    /// <summary>The built graph, once <see cref="Advance"/> answered true.</summary>
    public HeapGraph Graph => _phases?.Graph ?? throw new HeapTargetException("INVALID_PARAMETER", "the graph is not built yet");

    /// <summary>What is left of the walk, then the phases after it for about waitMs: true once
    /// the graph is built (<see cref="GraphPhases.Advance"/>).</summary>
    public bool Advance(int waitMs)
    {
        while (!_done)
            Step(int.MaxValue);
        return (_phases ??= new GraphPhases(this)).Advance(waitMs);
    }

    /// <summary>The whole build at once: what is left of the walk and every phase after it.</summary>
    public HeapGraph Finish()
    {
        while (!Advance(int.MaxValue)) { }
        return Graph;
    }

    /// <summary>Stop the build and free its arrays now; where it stopped (<see cref="GraphPhases.Cancel"/>).</summary>
    public string Cancel()
    {
        _done = true; // nothing more is walked
        _pipeline.Release();
        return (_phases ??= new GraphPhases(this)).Cancel();
    }

    /// <summary>Segments the walk could not finish (their remaining objects and references are unknown).</summary>
    public long UnreadableObjects => _problems.Count;

    /// <summary>Where and why the walk stopped early in a segment, one line per segment.</summary>
    public IReadOnlyList<string> Problems => _problems;

    /// <summary>The allocation contexts (start to end) of every thread and heap: gaps, not objects.</summary>
    internal static IReadOnlyDictionary<ulong, ulong> AllocationContexts(ClrHeap heap)
    {
        var contexts = new Dictionary<ulong, ulong>();
        foreach (var range in heap.EnumerateAllocationContexts())
            contexts[range.Start] = range.End;
        return contexts;
    }

    /// <summary>Merge walked segments until at least maxObjects more objects; true once the whole heap was walked.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool Step(int maxObjects)
    {
        var watch = Stopwatch.StartNew();
        long goal = _addresses.Count + maxObjects;
        while (!_done && _addresses.Count < goal)
        {
            var scan = _pipeline.Next();
            if (scan is null)
            {
                _done = true;
                WalkedBytes = TotalBytes;
                ReleaseWalkBuffers();
                break;
            }
            Merge(scan);
            _pipeline.Return(scan);
        }
        _times.Add("walk", watch.Elapsed.TotalSeconds);
        return _done;
    }

    /// <summary>The walk's buffers (managed arrays as large as the largest segment's objects
    /// and references) go back to the system before the graph's own arrays grow: a
    /// compacting collection, the large object heap included, returns their memory.</summary>
    private void ReleaseWalkBuffers()
    {
        _pipeline.Release();
        System.Runtime.GCSettings.LargeObjectHeapCompactionMode = System.Runtime.GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void Merge(SegmentScan scan)
    {
        _segments.Add(scan.Tally);
        var global = new int[scan.Types.Count];
        for (int t = 0; t < global.Length; t++)
            global[t] = TypeIndex(scan.Types[t].Type);
        _addresses.AddRange(scan.Addresses.Span);
        _sizes.AddRange(scan.Sizes.Span);
        _generations.AddRange(scan.Generations.Span);
        _edgeCounts.AddRange(scan.EdgeCounts.Span);
        _edges.AddRange(scan.Edges.Span);
        _typeOf.AddRange(scan.TypeOf.Span, global);
        if (scan.Problem is not null)
            _problems.Add(scan.Problem);
        if (scan.Stopped is not null)
            _stops.Add(scan.Stopped);
        WalkedBytes = Math.Min(TotalBytes, WalkedBytes + (long)scan.Tally.Segment.ObjectRange.Length);
    }

    private int TypeIndex(ClrType type)
    {
        ulong mt = type.MethodTable;
        if (!_typeIndex.TryGetValue(mt, out int typeIndex))
        {
            typeIndex = _types.Count;
            _typeIndex[mt] = typeIndex;
            _types.Add(type);
        }
        return typeIndex;
    }
}
