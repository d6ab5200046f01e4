using System.Diagnostics;

namespace PyInspect.Heap;

/// <summary>
/// A graph build's phases after its walk (<see cref="HeapGraphBuilder"/>), advanced by the caller
/// in short calls (<see cref="Advance"/>, as the walk is in batches), so it can say which phase
/// runs and cancel the build between two calls (<see cref="Cancel"/>). A phase that reads the target (its roots, its dependent handles)
/// runs inside the call, so the target is read by one caller at a time as before; a phase over
/// the arrays only (the address index, reference resolution, the dominator pass, retained sizes:
/// seconds each at 100M objects) runs on a thread of its own across calls, and a cancel stops it
/// at its next <see cref="Checkpoint"/>. The phases and their order are those of one whole build.
/// </summary>
internal sealed class GraphPhases
{
    private readonly HeapGraphBuilder _walk;
    private readonly ArrayStore _store;
    private readonly PhaseTimes _times;
    private readonly CancellationTokenSource _cancel = new();
    private BuildPhase[]? _phases;
    private int _next;
    private Task? _running;
    private bool _stopped;
    private HeapGraph? _graph;
    private AddressIndex? _index;
    private RootCollector? _collector;
    private List<GraphRoot>? _roots;
    private (int Source, int Target)[]? _dependents;
    private MappedArray<int>? _offsets, _targets, _idom, _preorder;
    private RetainedArray? _retained;
    private long _unresolved;

    public GraphPhases(HeapGraphBuilder walk)
    {
        _walk = walk;
        _store = walk.Store;
        _times = walk.Times;
    }

    /// <summary>One phase: its name in <see cref="PhaseTimes"/>, its words in an answer ("stopped
    /// during the dominator pass"), and whether it reads the target (then it runs in the call).</summary>
    private sealed record BuildPhase(string Name, string Words, bool ReadsTarget, Action<CancellationToken> Run);

    private BuildPhase[] Phases() =>
    [
        new("arrays", "the trimming of the walk's arrays", false, _ => TrimArrays()),
        new("index", "the address index", false, _ => _index = new AddressIndex(_store, _walk.Addresses, _walk.Sizes)),
        new("roots", "the roots' collection", true, _ => CollectRoots()),
        new("references", "the dependent handles' reading", true,
            _ => _dependents = EdgeResolution.DependentEdges(_walk.Runtime, _index!)),
        new("references", "reference resolution", false, ResolveReferences),
        new("dominators", "the dominator pass", false, Dominators),
        new("retained", "the retained sizes", false, Retained),
    ];

    /// <summary>The phase under way (or next), in an answer's words.</summary>
    public string Phase => _phases is null ? "the walk" : _next < _phases.Length ? _phases[_next].Words : "the graph's assembly";

    /// <summary>The built graph, once <see cref="Advance"/> answered true.</summary>
    public HeapGraph Graph => _graph ?? throw new HeapTargetException("INVALID_PARAMETER", "the graph is not built yet");

    /// <summary>The phases for about waitMs: true once the graph is built; false while a phase
    /// runs on, or as soon as one starts on its own thread (<see cref="Phase"/> names it), so the
    /// caller can say so and cancel between calls.</summary>
    public bool Advance(int waitMs)
    {
        if (_stopped)
            throw new HeapTargetException("INVALID_PARAMETER", "this graph's build was cancelled or failed: start a new one");
        var watch = Stopwatch.StartNew();
        try
        {
            var phases = _phases ??= Phases();
            while (_graph is null)
            {
                if (_running is { } running)
                {
                    if (Task.WaitAny([running], (int)Math.Max(0, waitMs - watch.ElapsedMilliseconds)) < 0)
                        return false;
                    _running = null;
                    running.GetAwaiter().GetResult(); // a phase's failure, as it was thrown
                    _next++;
                    continue;
                }
                if (_next == phases.Length)
                {
                    _graph = Assemble();
                    break;
                }
                var phase = phases[_next];
                Breadcrumbs.Say(phase.Name); // said here: the dump reader's parent reads them per call
                if (phase.ReadsTarget)
                {
                    Run(phase);
                    _next++;
                    continue;
                }
                _running = Task.Factory.StartNew(() => Run(phase), CancellationToken.None, TaskCreationOptions.LongRunning,
                                                 TaskScheduler.Default);
                return false;
            }
            return true;
        }
        catch
        {
            _stopped = true;
            throw;
        }
    }

    /// <summary>Stop the build and give back every array it holds (memory unmapped; a work folder's
    /// files closed, which were unlinked when made): a phase on its own thread stops at its next
    /// checkpoint, within milliseconds. Answers where it stopped ("during the dominator pass");
    /// the builder cannot be advanced after. A built graph is left as it is.</summary>
    public string Cancel()
    {
        if (_graph is not null)
            return "after the graph was built";
        _stopped = true;
        _cancel.Cancel();
        string where = $"during {Phase}";
        if (_running is { } running)
        {
            _running = null;
            Task.WaitAny([running]);
            if (running.IsCompletedSuccessfully)
                where = $"after {Phase}";
        }
        ReleaseArrays();
        return where;
    }

    private void Run(BuildPhase phase)
    {
        var watch = Stopwatch.StartNew();
        try
        {
            phase.Run(_cancel.Token);
        }
        finally
        {
            _times.Add(phase.Name, watch.Elapsed.TotalSeconds);
        }
    }

    private void ReleaseArrays()
    {
        IDisposable?[] held = [_walk.Addresses, _walk.TypeOf, _walk.Sizes, _walk.Generations, _walk.EdgeCounts, _walk.Edges,
                               _targets, _idom, _preorder, _retained];
        foreach (var array in held)
            array?.Dispose();
        _index?.DropBuckets();
        (_index, _collector, _roots, _dependents, _offsets, _targets, _idom, _preorder, _retained) =
            (null, null, null, null, null, null, null, null, null);
        // the arrays the stopped phase made and had not handed on are unreachable now: unmapped by their finalizers
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
    }

    private void TrimArrays()
    {
        _walk.Addresses.Trim();
        _walk.TypeOf.Trim();
        _walk.Sizes.Trim();
        _walk.Generations.Trim();
    }

    private void CollectRoots()
    {
        _collector = new RootCollector(_walk.Runtime, _index!, _walk.Steps);
        _roots = _collector.Collect();
    }

    private void ResolveReferences(CancellationToken cancel)
    {
        (_offsets, _targets, _unresolved) = EdgeResolution.ResolveEdges(_walk.Addresses, _walk.EdgeCounts, _walk.Edges, _index!,
                                                                        _roots!, _dependents!, cancel);
        _index!.DropBuckets();
    }

    private void Dominators(CancellationToken cancel)
    {
        int n = _walk.Addresses.Count;
        _idom = DominatorTree.Compute(_store, n + 1, _offsets!.Span, _targets!.Span, n, out var preorder, _times, cancel);
        _preorder = preorder;
    }

    private void Retained(CancellationToken cancel)
    {
        using (_preorder)
            _retained = RetainedSizes.Compute(_store, _idom!.Span, _walk.Sizes, _preorder!.Span, cancel);
        _preorder = null;
    }

    private HeapGraph Assemble()
    {
        var w = _walk;
        var types = w.Types.Select(t => t.Name ?? $"<unknown type {HeapJson.Hex(t.MethodTable)}>").ToArray();
        int stringType = w.Types.FindIndex(t => t.IsString);
        var collector = _collector!;
        return new HeapGraph(w.Runtime, _store, w.Addresses, w.TypeOf, w.Sizes, w.Generations, types, stringType, _offsets!,
                             _targets!, _roots!, w.Segments, _index!, w.UnreadableObjects, _unresolved, _idom!, _retained!, _times)
        {
            SkippedThreads = collector.SkippedThreads.Count,
            Completeness = new CompletenessRecord
            {
                StoppedSegments = w.Stops.ToList(), UnresolvedReferences = _unresolved,
                UnreadableThreads = collector.SkippedThreads.Select(t => (uint)t).ToList(),
                Notes = w.Steps.Notes(),
            }.Settle(),
        };
    }
}
