using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Builds a <see cref="HeapGraph"/> in one heap walk, advanced in batches so the caller
/// can show progress: each object's address, type, size and generation go to parallel
/// buffers and its references to one flat buffer; <see cref="Finish"/> turns references
/// into object indices, collects the roots and computes dominators and retained sizes.
/// Segments are walked in address order, so object indices are in address order too.
/// The hot loops here and in the graph's algorithms are compiled fully optimized at once
/// (AggressiveOptimization): on a loaded machine, tiered compilation's background
/// promotion can lag behind a whole build, leaving it in unoptimized code.
/// </summary>
public sealed class HeapGraphBuilder
{
    private readonly ClrRuntime _runtime;
    private readonly List<SegmentTally> _segments = new();
    private readonly Dictionary<ulong, int> _typeIndex = new();
    private readonly List<ClrType> _types = new();
    private readonly List<bool> _hasReferences = new();
    private readonly ChunkedBuffer<ulong> _addresses = new();
    private readonly ChunkedBuffer<int> _typeOf = new();
    private readonly ChunkedBuffer<long> _sizes = new();
    private readonly ChunkedBuffer<byte> _generations = new();
    private readonly ChunkedBuffer<int> _edgeCounts = new();
    private readonly ChunkedBuffer<ulong> _edges = new();
    private readonly PhaseTimes _times = new();
    private int _segmentAt = -1;
    private SegmentTally? _tally;
    private IEnumerator<ClrObject>? _objects;
    private ulong _lastMethodTable;
    private int _lastType = -1;
    private bool _done;

    internal HeapGraphBuilder(ClrRuntime runtime)
    {
        _runtime = runtime;
        if (!runtime.Heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        TotalBytes = runtime.Heap.Segments.Sum(s => (long)s.ObjectRange.Length);
        // A graph holds gigabytes in a few large arrays; an earlier graph the caller dropped
        // is returned to the system now, before this build allocates as much again (left
        // to the GC, it is collected in the middle of the build under memory pressure).
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true);
    }

    public long TotalBytes { get; }
    public long WalkedBytes { get; private set; }
    public long ObjectCount => _addresses.Count;

    /// <summary>Objects the walk met without a readable type (their references are unknown).</summary>
    public long UnreadableObjects { get; private set; }

    /// <summary>Visit up to maxObjects objects; true once the whole heap was walked.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool Step(int maxObjects)
    {
        var watch = Stopwatch.StartNew();
        int visited = 0;
        while (!_done && visited < maxObjects)
        {
            if (_objects is null || !_objects.MoveNext())
            {
                NextSegment();
                continue;
            }
            Visit(_objects.Current);
            visited++;
        }
        _times.Add("walk", watch.Elapsed.TotalSeconds);
        return _done;
    }

    private void NextSegment()
    {
        var segments = _runtime.Heap.Segments;
        _objects?.Dispose();
        if (++_segmentAt >= segments.Length)
        {
            _done = true;
            _objects = null;
            WalkedBytes = TotalBytes;
            return;
        }
        _tally = new SegmentTally(segments[_segmentAt]);
        _segments.Add(_tally);
        _objects = _tally.Segment.EnumerateObjects().GetEnumerator();
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void Visit(ClrObject obj)
    {
        var type = obj.Type;
        if (type is null)
        {
            UnreadableObjects++;
            return;
        }
        var tally = _tally!;
        long size = (long)obj.Size;
        WalkedBytes += size;
        if (type.IsFree)
        {
            tally.FreeBytes += size;
            var gen = tally.Segment.GetGeneration(obj.Address);
            tally.FreeByGeneration[gen] = tally.FreeByGeneration.GetValueOrDefault(gen) + size;
            return;
        }
        tally.ObjectBytes += size;
        tally.ObjectCount++;
        int typeIndex = TypeIndex(type);
        _addresses.Add(obj.Address);
        _typeOf.Add(typeIndex);
        _sizes.Add(size);
        _generations.Add(tally.FixedGeneration ?? (byte)tally.Segment.GetGeneration(obj.Address));
        int count = 0;
        if (_hasReferences[typeIndex])
            foreach (ulong target in obj.EnumerateReferenceAddresses(carefully: false, considerDependantHandles: false))
                if (target != 0)
                {
                    _edges.Add(target);
                    count++;
                }
        _edgeCounts.Add(count);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private int TypeIndex(ClrType type)
    {
        ulong mt = type.MethodTable;
        if (mt == _lastMethodTable && _lastType >= 0)
            return _lastType;
        if (!_typeIndex.TryGetValue(mt, out int typeIndex))
        {
            typeIndex = _types.Count;
            _typeIndex[mt] = typeIndex;
            _types.Add(type);
            _hasReferences.Add(type.ContainsPointers);
        }
        _lastMethodTable = mt;
        _lastType = typeIndex;
        return typeIndex;
    }

    /// <summary>Finish the walk (if needed), resolve references, roots, dominators, retained sizes.</summary>
    public HeapGraph Finish()
    {
        while (!Step(int.MaxValue)) { }
        int n = checked((int)_addresses.Count);
        WalkedBytes = Math.Min(WalkedBytes, TotalBytes);
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
        var collector = new RootCollector(_runtime, index);
        var roots = _times.Time("roots", collector.Collect);
        var (offsets, targets, unresolved) = _times.Time("references", () => ResolveEdges(n, addresses, index, roots));
        var types = _types.Select(t => t.Name ?? $"<unknown type {HeapJson.Hex(t.MethodTable)}>").ToArray();
        int stringType = _types.FindIndex(t => t.IsString);
        return new HeapGraph(_runtime, addresses, typeOf, sizes, generations, types, stringType,
                             offsets, targets, roots, _segments, index, UnreadableObjects, unresolved, _times)
        {
            SkippedThreads = collector.SkippedThreads.Count,
        };
    }

    /// <summary>References as object indices in CSR form over n + 1 nodes, the last being
    /// the super-root whose edges go to every distinct root object. A dependent handle
    /// (ConditionalWeakTable) is an edge from its key to its value, whatever the key's type.
    /// A reference to the object right after the previous one (arrays filled in order)
    /// skips the binary search.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private (int[] Offsets, int[] Targets, long Unresolved) ResolveEdges(int n, ulong[] addresses, AddressIndex index, List<GraphRoot> roots)
    {
        var dependents = DependentEdges(index);
        var distinctRoots = roots.Select(r => r.Object).Distinct().ToArray();
        var offsets = new int[n + 2];
        var targets = GC.AllocateUninitializedArray<int>(checked((int)_edges.Count + dependents.Length + distinctRoots.Length));
        int written = 0, hint = -1, chunk = 0, at = 0, nextDependent = 0;
        var edges = _edges.Count > 0 ? _edges.Chunk(0) : ReadOnlySpan<ulong>.Empty;
        int countChunk = 0, countAt = 0;  // edge counts are walked chunk by chunk too, one per object
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
                if (at == edges.Length)
                {
                    edges = _edges.Chunk(++chunk);
                    at = 0;
                }
                ulong address = edges[at++];
                int w = hint + 1 < n && addresses[hint + 1] == address ? hint + 1 : index.Find(address);
                hint = w;
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
        _edges.Clear();
        _edgeCounts.Clear();
        Array.Resize(ref targets, written);
        return (offsets, targets, unresolved);
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
