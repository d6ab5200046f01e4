using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Builds a <see cref="HeapGraph"/> in one heap walk, advanced in batches so the caller
/// can show progress: each object's address, type, size and generation go to parallel
/// buffers and its references to one flat buffer; the phases after the walk
/// (HeapGraphBuilder.Phases.cs) turn references into object indices, collect the roots and
/// compute dominators and retained sizes.
/// The walk is our own (<see cref="SegmentWalker"/>, segments on every core through a
/// <see cref="SegmentPipeline"/>, merged in address order), so object indices are in
/// address order. The hot loops here and in the graph's algorithms are compiled fully
/// optimized at once (AggressiveOptimization): on a loaded machine, tiered compilation's
/// background promotion can lag behind a whole build, leaving it in unoptimized code.
/// </summary>
public sealed partial class HeapGraphBuilder
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

    /// <summary>References as object indices in CSR form over n + 1 nodes, the last being
    /// the super-root whose edges go to every distinct root object. A dependent handle
    /// (ConditionalWeakTable) is an edge from its key to its value, whatever the key's type.
    /// Everything happens in the walk's own arrays: addresses are resolved to indices in
    /// place (<see cref="ResolveInPlace"/>), shifted past the dependent edges, and the
    /// compaction that follows (dropping unresolved ones, inserting dependent edges) turns
    /// the per-object reference counts into offsets where they stand.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private (MappedArray<int> Offsets, MappedArray<int> Targets, long Unresolved) ResolveEdges(
        int n, AddressIndex index, List<GraphRoot> roots, (int Source, int Target)[] dependents, CancellationToken cancel)
    {
        var distinctRoots = roots.Select(r => r.Object).Distinct().ToArray();
        int edgeCount = _edges.Count;
        ResolveInPlace(index, cancel);
        var targets = _edges.Reinterpret<int>();
        targets.Resize(Math.Max(targets.Count, (long)edgeCount + dependents.Length + distinctRoots.Length));
        var t = targets.Span;
        t[..edgeCount].CopyTo(t[dependents.Length..]);
        var offsets = _edgeCounts;
        offsets.Resize((long)n + 2);
        var o = offsets.Span;
        // written never passes read: it counts the references read so far (less the
        // unresolved) plus the dependent edges inserted so far, at most dependents.Length.
        int written = 0, read = dependents.Length, nextDependent = 0;
        long unresolved = 0;
        for (int v = 0; v < n; v++)
        {
            Checkpoint.At(v, cancel);
            int count = o[v];
            o[v] = written;
            for (int left = count; left > 0; left--)
            {
                int w = t[read++];
                if (w < 0)
                    unresolved++;
                else
                    t[written++] = w;
            }
            for (; nextDependent < dependents.Length && dependents[nextDependent].Source == v; nextDependent++)
                t[written++] = dependents[nextDependent].Target;
        }
        o[n] = written;
        foreach (int r in distinctRoots)
            t[written++] = r;
        o[n + 1] = written;
        targets.Resize(written);
        targets.Trim();
        return (offsets, targets, unresolved);
    }

    /// <summary>Each reference's address becomes its object index (or -1), written as an int
    /// over the same memory: element e's int lies at byte 4e, below its address at byte 8e.
    /// The first block is done in order; each later block [s, 2s) writes bytes [4s, 8s), all
    /// below the addresses it reads ([8s, 16s)), so its parts run on every core. A reference
    /// to the object right after the previous one's target (arrays filled in order) skips
    /// the search.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private unsafe void ResolveInPlace(AddressIndex index, CancellationToken cancel)
    {
        nint edgesAt = (nint)_edges.Pointer;
        int total = _edges.Count;
        var addresses = _addresses;
        void Resolve(int from, int to)
        {
            ulong* edges = (ulong*)edgesAt;
            int* into = (int*)edgesAt;
            int hint = -1;
            for (int i = from; i < to; i++)
            {
                if (Checkpoint.Stopped(i, cancel))
                    return;
                ulong address = edges[i];
                int w = addresses.Is(hint + 1, address) ? hint + 1 : index.Find(address);
                hint = w;
                into[i] = w;
            }
        }
        int start = Math.Min(total, 1 << 16);
        Resolve(0, start);
        cancel.ThrowIfCancellationRequested();
        while (start < total)
        {
            int end = (int)Math.Min(total, 2L * start);
            int parts = Environment.ProcessorCount * 4, from = start, length = end - start;
            Parallel.For(0, parts, p => Resolve(from + (int)((long)length * p / parts), from + (int)((long)length * (p + 1) / parts)));
            cancel.ThrowIfCancellationRequested();
            start = end;
        }
    }

    /// <summary>Dependent handles as (key index, value index), ordered by key.</summary>
    private (int Source, int Target)[] DependentEdges(AddressIndex index)
    {
        var edges = new List<(int Source, int Target)>();
        foreach (var handle in _runtime.EnumerateHandles())
        {
            if (handle.HandleKind != ClrHandleKind.Dependent)
                continue;
            int source = index.Find(handle.Object.Address), target = index.Find(handle.Dependent.Address);
            if (source >= 0 && target >= 0)
                edges.Add((source, target));
        }
        edges.Sort();
        return edges.ToArray();
    }
}
