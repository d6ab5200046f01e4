using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Builds a <see cref="HeapGraph"/> in one heap walk, advanced in batches so the caller
/// can show progress: each object's address, type, size and generation go to parallel
/// arrays and its references to one flat list; <see cref="Finish"/> turns references
/// into object indices, collects the roots and computes dominators and retained sizes.
/// </summary>
public sealed class HeapGraphBuilder
{
    private readonly ClrRuntime _runtime;
    private readonly IEnumerator<(SegmentTally Tally, ClrObject Obj)> _objects;
    private readonly List<SegmentTally> _segments = new();
    private readonly Dictionary<ulong, int> _typeIndex = new();
    private readonly List<ClrType> _types = new();
    private readonly List<bool> _hasReferences = new();
    private readonly List<ulong> _addresses = new();
    private readonly List<int> _typeOf = new();
    private readonly List<long> _sizes = new();
    private readonly List<byte> _generations = new();
    private readonly List<int> _edgeStart = new();
    private readonly List<ulong> _edges = new();
    private bool _done;

    internal HeapGraphBuilder(ClrRuntime runtime)
    {
        _runtime = runtime;
        if (!runtime.Heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        TotalBytes = runtime.Heap.Segments.Sum(s => (long)s.ObjectRange.Length);
        _objects = EnumerateAll().GetEnumerator();
    }

    public long TotalBytes { get; }
    public long WalkedBytes { get; private set; }
    public long ObjectCount => _addresses.Count;

    /// <summary>Objects the walk met without a readable type (their references are unknown).</summary>
    public long UnreadableObjects { get; private set; }

    private IEnumerable<(SegmentTally, ClrObject)> EnumerateAll()
    {
        foreach (var segment in _runtime.Heap.Segments)
        {
            var tally = new SegmentTally(segment);
            _segments.Add(tally);
            foreach (var obj in segment.EnumerateObjects())
                yield return (tally, obj);
        }
    }

    /// <summary>Visit up to maxObjects objects; true once the whole heap was walked.</summary>
    public bool Step(int maxObjects)
    {
        for (int i = 0; i < maxObjects && !_done; i++)
        {
            if (!_objects.MoveNext())
            {
                _done = true;
                WalkedBytes = TotalBytes;
                break;
            }
            var (tally, obj) = _objects.Current;
            Visit(tally, obj);
        }
        return _done;
    }

    private void Visit(SegmentTally tally, ClrObject obj)
    {
        var type = obj.Type;
        if (type is null)
        {
            UnreadableObjects++;
            return;
        }
        long size = (long)obj.Size;
        WalkedBytes = Math.Min(TotalBytes, WalkedBytes + size);
        if (type.IsFree)
        {
            tally.FreeBytes += size;
            var gen = tally.Segment.GetGeneration(obj.Address);
            tally.FreeByGeneration[gen] = tally.FreeByGeneration.GetValueOrDefault(gen) + size;
            return;
        }
        tally.ObjectBytes += size;
        tally.ObjectCount++;
        if (!_typeIndex.TryGetValue(type.MethodTable, out int typeIndex))
        {
            typeIndex = _types.Count;
            _typeIndex[type.MethodTable] = typeIndex;
            _types.Add(type);
            _hasReferences.Add(type.ContainsPointers || type.IsCollectible);
        }
        _addresses.Add(obj.Address);
        _typeOf.Add(typeIndex);
        _sizes.Add(size);
        _generations.Add(tally.FixedGeneration ?? (byte)tally.Segment.GetGeneration(obj.Address));
        _edgeStart.Add(_edges.Count);
        if (_hasReferences[typeIndex])
            foreach (ulong target in obj.EnumerateReferenceAddresses(carefully: false, considerDependantHandles: true))
                if (target != 0)
                    _edges.Add(target);
    }

    /// <summary>Finish the walk (if needed), resolve references, roots, dominators, retained sizes.</summary>
    public HeapGraph Finish()
    {
        while (!Step(int.MaxValue)) { }
        int n = _addresses.Count;
        var addresses = _addresses.ToArray();
        var sizes = _sizes.ToArray();
        var index = new AddressIndex(addresses, sizes);
        var collector = new RootCollector(_runtime, index);
        var roots = collector.Collect();
        var (offsets, targets, unresolved) = ResolveEdges(n, addresses, index, roots);
        _edges.Clear();
        _edges.TrimExcess();
        var types = _types.Select(t => t.Name ?? $"<unknown type {HeapJson.Hex(t.MethodTable)}>").ToArray();
        int stringType = _types.FindIndex(t => t.IsString);
        return new HeapGraph(_runtime, addresses, _typeOf.ToArray(), sizes, _generations.ToArray(), types, stringType,
                             offsets, targets, roots, _segments, index, UnreadableObjects, unresolved)
        {
            SkippedThreads = collector.SkippedThreads.Count,
        };
    }

    /// <summary>References as object indices in CSR form over n + 1 nodes, the last being
    /// the super-root whose edges go to every distinct root object. A reference to the
    /// object right after the previous one (arrays filled in order) skips the binary search.</summary>
    private (int[] Offsets, int[] Targets, long Unresolved) ResolveEdges(int n, ulong[] addresses, AddressIndex index, List<GraphRoot> roots)
    {
        var edgeStart = CollectionsMarshal.AsSpan(_edgeStart);
        var edges = CollectionsMarshal.AsSpan(_edges);
        var distinctRoots = roots.Select(r => r.Object).Distinct().ToArray();
        var offsets = new int[n + 2];
        var targets = new int[edges.Length + distinctRoots.Length];
        int written = 0, hint = -1;
        long unresolved = 0;
        for (int v = 0; v < n; v++)
        {
            offsets[v] = written;
            int end = v + 1 < n ? edgeStart[v + 1] : edges.Length;
            for (int e = edgeStart[v]; e < end; e++)
            {
                int w = hint + 1 < n && addresses[hint + 1] == edges[e] ? hint + 1 : index.Find(edges[e]);
                hint = w;
                if (w < 0)
                    unresolved++;
                else
                    targets[written++] = w;
            }
        }
        offsets[n] = written;
        foreach (int r in distinctRoots)
            targets[written++] = r;
        offsets[n + 1] = written;
        Array.Resize(ref targets, written);
        return (offsets, targets, unresolved);
    }
}
