using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// A heap snapshot as a graph: objects are dense indices into parallel arrays (address,
/// type, size, generation), references are CSR arrays over the objects plus one
/// super-root (the last node) whose edges are the roots. Dominators and retained sizes
/// are computed once at build (<see cref="HeapGraphBuilder"/>'s phases); queries answer JSON
/// in the helper's shapes.
/// </summary>
public sealed class HeapGraph
{
    private readonly ClrRuntime _runtime;
    private readonly List<SegmentTally> _segments;
    private PredecessorLists? _preds;
    private long[]? _retainedByType;

    internal HeapGraph(ClrRuntime runtime, ArrayStore store, ObjectAddresses addresses, TypeIndices typeOf,
                       ObjectSizes sizes, ObjectGenerations generations, string[] typeNames, int stringType,
                       MappedArray<int> offsets, MappedArray<int> targets, List<GraphRoot> roots,
                       List<SegmentTally> segments, AddressIndex index, long unreadable, long unresolved,
                       MappedArray<int> idom, RetainedArray retained, PhaseTimes times)
    {
        _runtime = runtime;
        Store = store;
        Addresses = addresses;
        TypeOf = typeOf;
        Sizes = sizes;
        Generations = generations;
        TypeNames = typeNames;
        StringType = stringType;
        Offsets = offsets;
        Targets = targets;
        Roots = roots;
        _segments = segments;
        Index = index;
        UnreadableObjects = unreadable;
        UnresolvedReferences = unresolved;
        Idom = idom;
        Retained = retained;
        Times = times;
    }

    /// <summary>Where the arrays live (memory, or files in a work folder) and their peak bytes.</summary>
    public ArrayStore Store { get; }
    internal ObjectAddresses Addresses { get; }
    internal TypeIndices TypeOf { get; }
    internal ObjectSizes Sizes { get; }
    internal ObjectGenerations Generations { get; }
    internal string[] TypeNames { get; }
    internal int StringType { get; }
    internal MappedArray<int> Offsets { get; }
    internal MappedArray<int> Targets { get; }
    internal List<GraphRoot> Roots { get; }
    internal AddressIndex Index { get; }
    internal MappedArray<int> Idom { get; }
    internal RetainedArray Retained { get; }
    internal ClrHeap Heap => _runtime.Heap;
    internal List<SegmentTally> Segments => _segments;

    public int ObjectCount => Addresses.Length;
    internal int PointerSize => _runtime.DataTarget.DataReader.PointerSize;
    public long UnreadableObjects { get; }
    public long UnresolvedReferences { get; }

    /// <summary>Threads whose stacks could not be walked: their stack roots are missing.</summary>
    public int SkippedThreads { get; init; }

    /// <summary>Whether the snapshot holds the whole heap; every answer from it carries this.</summary>
    public CompletenessRecord Completeness { get; init; } = new();

    public string CompletenessJson() => HeapJson.Serialize(Completeness);
    public int SuperRoot => Addresses.Length;

    /// <summary>Bytes held by the graph's arrays (objects, references, dominators, retained sizes).</summary>
    public long ArrayBytes => Store.CurrentBytes;

    /// <summary>The most bytes the build's arrays held at one moment (the walk, dominators, retained sizes).</summary>
    public long PeakArrayBytes => Store.PeakBytes;

    /// <summary>The folder whose files held the arrays, or null when they were in memory.</summary>
    public string? WorkFolder => Store.WorkFolder;

    internal bool IsLive(int v) => Idom[v] >= 0;


    /// <summary>Per type retained sizes, computed on first use (the dominator tree's
    /// children are listed for it and dropped after).</summary>
    internal long[] RetainedByType
    {
        get
        {
            if (_retainedByType is null)
            {
                using var children = PredecessorLists.DominatorChildren(Store, Idom.Span);
                _retainedByType = RetainedSizes.ByType(TypeNames.Length, TypeOf, Retained, Idom.Span, children);
            }
            return _retainedByType;
        }
    }

    /// <summary>Predecessors of every node (for retention paths), built on first use.</summary>
    internal PredecessorLists Predecessors() =>
        _preds ??= PredecessorLists.Of(Store, Addresses.Length + 1, Offsets.Span, Targets.Span);

    /// <summary>The object index at address, or an INVALID_PARAMETER / NOT_AN_OBJECT error.</summary>
    internal int Require(ulong address)
    {
        int v = Index.Find(address);
        if (v < 0)
            throw new HeapTargetException("NOT_AN_OBJECT", $"no object starts at {HeapJson.Hex(address)} in this snapshot");
        return v;
    }

    /// <summary>Where the build's time went: {"walk": s, "index": s, "roots": s, ...}.</summary>
    public PhaseTimes Times { get; }

    public string TimesJson() => Times.Json();

    /// <summary>Write the whole graph to path (see <see cref="GraphFile"/> for the layout).</summary>
    public void SaveGraph(string description, string path)
    {
        try
        {
            GraphFile.Save(this, description, path);
        }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException)
        {
            throw new HeapTargetException("INVALID_PARAMETER", $"cannot write {path}: {exc.Message}", exc);
        }
    }

    public string SummaryJson() => HeapJson.Serialize(GraphQueries.Summary(this));

    /// <summary>Per type count and size; which: 0 all objects, 1 live only, 2 dead only.</summary>
    public string TypeStatsJson(int which, int top) => HeapJson.Serialize(GraphQueries.TypeStats(this, which, top));

    /// <summary>The given objects (comma-separated addresses), or the top retainers when none.</summary>
    public string RetainedJson(string addresses, int top) => HeapJson.Serialize(GraphQueries.Retained(this, addresses, top));

    public string RetainedByTypeJson(int top) => HeapJson.Serialize(GraphQueries.RetainedByType(this, top));

    public string PathsJson(ulong address, int maxPaths) => HeapJson.Serialize(new RetentionPaths(this).Find(address, maxPaths));

    public string InstancesJson(string typeName, int start, int count) =>
        HeapJson.Serialize(GraphQueries.Instances(this, typeName, start, count));

    public string DuplicateStringsJson(int top) => HeapJson.Serialize(HeapInventory.DuplicateStrings(this, top));

    public string DuplicateStringsJson(int top, bool liveOnly) =>
        HeapJson.Serialize(HeapInventory.DuplicateStrings(this, top, liveOnly));

    public string LayoutJson() => HeapJson.Serialize(HeapInventory.Layout(this));

    public string FinalizerJson() => HeapJson.Serialize(HeapInventory.Finalizer(this));

    public string WastedCapacityJson(int top) => HeapJson.Serialize(CollectionCapacity.Find(this, top));
}
