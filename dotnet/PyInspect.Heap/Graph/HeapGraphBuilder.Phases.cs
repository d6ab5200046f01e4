using System.Diagnostics;

namespace PyInspect.Heap;

/// <summary>
/// The build's phases after the walk, advanced by the caller in short calls (<see cref="Advance"/>,
/// as the walk is in batches), so it can say which phase runs and cancel the build between two
/// calls (<see cref="Cancel"/>). A phase that reads the target (its roots, its dependent handles)
/// runs inside the call, so the target is read by one caller at a time as before; a phase over
/// the arrays only (the address index, reference resolution, the dominator pass, retained sizes:
/// seconds each at 100M objects) runs on a thread of its own across calls, and a cancel stops it
/// at its next <see cref="Checkpoint"/>. The phases and their order are those of one whole build.
/// </summary>
public sealed partial class HeapGraphBuilder
{
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

    /// <summary>One phase: its name in <see cref="PhaseTimes"/>, its words in an answer ("stopped
    /// during the dominator pass"), and whether it reads the target (then it runs in the call).</summary>
    private sealed record BuildPhase(string Name, string Words, bool ReadsTarget, Action<CancellationToken> Run);

    private BuildPhase[] Phases() =>
    [
        new("arrays", "the trimming of the walk's arrays", false, _ => TrimArrays()),
        new("index", "the address index", false, _ => _index = new AddressIndex(_store, _addresses, _sizes)),
        new("roots", "the roots' collection", true, _ => CollectRoots()),
        new("references", "the dependent handles' reading", true, _ => _dependents = DependentEdges(_index!)),
        new("references", "reference resolution", false, ResolveReferences),
        new("dominators", "the dominator pass", false, Dominators),
        new("retained", "the retained sizes", false, Retained),
    ];

    /// <summary>The phase under way (or next), in an answer's words.</summary>
    public string Phase => _phases is null ? "the walk" : _next < _phases.Length ? _phases[_next].Words : "the graph's assembly";

    /// <summary>Bytes the build's arrays hold now (none once cancelled).</summary>
    public long ArrayBytes => _store.CurrentBytes;

    /// <summary>The built graph, once <see cref="Advance"/> answered true.</summary>
    public HeapGraph Graph => _graph ?? throw new HeapTargetException("INVALID_PARAMETER", "the graph is not built yet");

    /// <summary>The whole build at once: what is left of the walk and every phase after it.</summary>
    public HeapGraph Finish()
    {
        while (!Advance(int.MaxValue)) { }
        return Graph;
    }

    /// <summary>What is left of the walk, then the phases after it, for about waitMs: true once the
    /// graph is built; false while a phase runs on, or as soon as one starts on its own thread
    /// (<see cref="Phase"/> names it), so the caller can say so and cancel between calls.</summary>
    public bool Advance(int waitMs)
    {
        if (_stopped)
            throw new HeapTargetException("INVALID_PARAMETER", "this graph's build was cancelled or failed: start a new one");
        var watch = Stopwatch.StartNew();
        try
        {
            while (!_done)
                Step(int.MaxValue);
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
        _pipeline.Release();
        IDisposable?[] held = [_addresses, _typeOf, _sizes, _generations, _edgeCounts, _edges, _targets, _idom, _preorder, _retained];
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
        _addresses.Trim();
        _typeOf.Trim();
        _sizes.Trim();
        _generations.Trim();
    }

    private void CollectRoots()
    {
        _collector = new RootCollector(_runtime, _index!, _steps);
        _roots = _collector.Collect();
    }

    private void ResolveReferences(CancellationToken cancel)
    {
        (_offsets, _targets, _unresolved) = ResolveEdges(_addresses.Count, _index!, _roots!, _dependents!, cancel);
        _index!.DropBuckets();
    }

    private void Dominators(CancellationToken cancel)
    {
        int n = _addresses.Count;
        _idom = DominatorTree.Compute(_store, n + 1, _offsets!.Span, _targets!.Span, n, out var preorder, _times, cancel);
        _preorder = preorder;
    }

    private void Retained(CancellationToken cancel)
    {
        using (_preorder)
            _retained = RetainedSizes.Compute(_store, _idom!.Span, _sizes, _preorder!.Span, cancel);
        _preorder = null;
    }

    private HeapGraph Assemble()
    {
        var types = _types.Select(t => t.Name ?? $"<unknown type {HeapJson.Hex(t.MethodTable)}>").ToArray();
        int stringType = _types.FindIndex(t => t.IsString);
        var collector = _collector!;
        return new HeapGraph(_runtime, _store, _addresses, _typeOf, _sizes, _generations, types, stringType, _offsets!,
                             _targets!, _roots!, _segments, _index!, UnreadableObjects, _unresolved, _idom!, _retained!, _times)
        {
            SkippedThreads = collector.SkippedThreads.Count,
            Completeness = new CompletenessRecord
            {
                StoppedSegments = _stops.ToList(), UnresolvedReferences = _unresolved,
                UnreadableThreads = collector.SkippedThreads.Select(t => (uint)t).ToList(),
                Notes = _steps.Notes(),
            }.Settle(),
        };
    }
}
