using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Builds a <see cref="HeapGraph"/> in one heap walk, advanced in batches so the caller
/// can show progress: each object's address, type, size and generation go to parallel
/// buffers and its references to one flat buffer; <see cref="Finish"/> turns references
/// into object indices, collects the roots and computes dominators and retained sizes.
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
    private readonly ChunkedBuffer<ulong> _addresses = new();
    private readonly ChunkedBuffer<int> _typeOf = new();
    private readonly ChunkedBuffer<long> _sizes = new();
    private readonly ChunkedBuffer<byte> _generations = new();
    private readonly ChunkedBuffer<int> _edgeCounts = new();
    private readonly ChunkedBuffer<ulong> _edges = new();
    private readonly PhaseTimes _times = new();
    private readonly SegmentPipeline _pipeline;
    private readonly List<string> _problems = new();
    private readonly List<SegmentStopRecord> _stops = new();
    private readonly ReadSteps _steps;
    private bool _done;

    internal HeapGraphBuilder(ClrRuntime runtime, IDataReader reader, ReadSteps steps)
    {
        _runtime = runtime;
        _steps = steps;
        var heap = runtime.Heap;
        if (!heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        TotalBytes = heap.Segments.Sum(s => (long)s.ObjectRange.Length);
        // A graph holds gigabytes in a few large arrays; an earlier graph the caller dropped
        // is returned to the system now, before this build allocates as much again (left
        // to the GC, it is collected in the middle of the build under memory pressure).
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true);
        var layouts = new TypeLayouts(heap, reader);
        var contexts = AllocationContexts(heap);
        _pipeline = new SegmentPipeline(heap.Segments, () => new SegmentWalker(reader, layouts, contexts, references: true, includeFree: false));
    }

    public long TotalBytes { get; }
    public long WalkedBytes { get; private set; }
    public long ObjectCount => _addresses.Count;

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
                break;
            }
            Merge(scan);
            _pipeline.Return(scan);
        }
        _times.Add("walk", watch.Elapsed.TotalSeconds);
        return _done;
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
        foreach (int local in scan.TypeOf.Span)
            _typeOf.Add(global[local]);
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

    /// <summary>Finish the walk (if needed), resolve references, roots, dominators, retained sizes.</summary>
    public HeapGraph Finish()
    {
        while (!Step(int.MaxValue)) { }
        int n = checked((int)_addresses.Count);
        var (addresses, typeOf, sizes, generations) = _times.Time("arrays", () =>
        {
            var result = (_addresses.ToArray(), _typeOf.ToArray(), _sizes.ToArray(), _generations.ToArray());
            _addresses.Clear();
            _typeOf.Clear();
            _sizes.Clear();
            _generations.Clear();
            return result;
        });
        var index = _times.Time("index", () => new AddressIndex(addresses, sizes));
        var collector = new RootCollector(_runtime, index, _steps);
        var roots = _times.Time("roots", collector.Collect);
        var (offsets, targets, unresolved) = _times.Time("references", () => ResolveEdges(n, addresses, index, roots));
        var types = _types.Select(t => t.Name ?? $"<unknown type {HeapJson.Hex(t.MethodTable)}>").ToArray();
        int stringType = _types.FindIndex(t => t.IsString);
        return new HeapGraph(_runtime, addresses, typeOf, sizes, generations, types, stringType,
                             offsets, targets, roots, _segments, index, UnreadableObjects, unresolved, _times)
        {
            SkippedThreads = collector.SkippedThreads.Count,
            Completeness = new CompletenessRecord
            {
                StoppedSegments = _stops.ToList(), UnresolvedReferences = unresolved,
                UnreadableThreads = collector.SkippedThreads.Select(t => (uint)t).ToList(),
                Notes = _steps.Notes(),
            }.Settle(),
        };
    }

    /// <summary>References as object indices in CSR form over n + 1 nodes, the last being
    /// the super-root whose edges go to every distinct root object. A dependent handle
    /// (ConditionalWeakTable) is an edge from its key to its value, whatever the key's type.
    /// Addresses are resolved on every core first (<see cref="ResolveAll"/>), each written
    /// at its reference's ordinal shifted past the dependent edges, so the compaction that
    /// follows (dropping unresolved ones, inserting dependent edges) works in place.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private (int[] Offsets, int[] Targets, long Unresolved) ResolveEdges(int n, ulong[] addresses, AddressIndex index, List<GraphRoot> roots)
    {
        var dependents = DependentEdges(index);
        var distinctRoots = roots.Select(r => r.Object).Distinct().ToArray();
        var offsets = new int[n + 2];
        var targets = GC.AllocateUninitializedArray<int>(checked((int)_edges.Count + dependents.Length + distinctRoots.Length));
        ResolveAll(targets, dependents.Length, addresses, index);
        _edges.Clear();
        // written never passes read: it counts the references read so far (less the
        // unresolved) plus the dependent edges inserted so far, at most dependents.Length.
        int written = 0, read = dependents.Length, nextDependent = 0;
        int countChunk = 0, countAt = 0;  // edge counts are walked chunk by chunk, one per object
        var counts = _edgeCounts.Count > 0 ? _edgeCounts.Chunk(0) : ReadOnlySpan<int>.Empty;
        long unresolved = 0;
        for (int v = 0; v < n; v++)
        {
            offsets[v] = written;
            if (countAt == counts.Length)
            {
                counts = _edgeCounts.Chunk(++countChunk);
                countAt = 0;
            }
            for (int left = counts[countAt++]; left > 0; left--)
            {
                int w = targets[read++];
                if (w < 0)
                    unresolved++;
                else
                    targets[written++] = w;
            }
            for (; nextDependent < dependents.Length && dependents[nextDependent].Source == v; nextDependent++)
                targets[written++] = dependents[nextDependent].Target;
        }
        offsets[n] = written;
        foreach (int r in distinctRoots)
            targets[written++] = r;
        offsets[n + 1] = written;
        _edgeCounts.Clear();
        Array.Resize(ref targets, written);
        return (offsets, targets, unresolved);
    }

    /// <summary>targets[shift + e] = the object index of reference e's address, or -1; the
    /// buffer's chunks on every core. A reference to the object right after the previous
    /// one's target (arrays filled in order) skips the search.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void ResolveAll(int[] targets, int shift, ulong[] addresses, AddressIndex index)
    {
        int n = addresses.Length;
        Parallel.For(0, _edges.ChunkCount, c =>
        {
            var edges = _edges.Chunk(c);
            var into = targets.AsSpan(shift + c * ChunkedBuffer<ulong>.ChunkLength, edges.Length);
            int hint = -1;
            for (int i = 0; i < edges.Length; i++)
            {
                ulong address = edges[i];
                int w = hint + 1 < n && addresses[hint + 1] == address ? hint + 1 : index.Find(address);
                hint = w;
                into[i] = w;
            }
        });
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
