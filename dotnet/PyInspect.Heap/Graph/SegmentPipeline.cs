namespace PyInspect.Heap;

/// <summary>
/// The heap's segments walked on every core, handed back strictly in address order:
/// up to (cores + 1) segments are walked ahead of the caller, each by a
/// <see cref="SegmentWalker"/> of its own thread; the caller merges each scan and gives
/// it back for reuse. Memory stays bounded by the segments in flight.
/// </summary>
internal sealed class SegmentPipeline
{
    private readonly Microsoft.Diagnostics.Runtime.ClrSegment[] _segments;
    private readonly Func<SegmentWalker> _newWalker;
    private readonly Queue<Task<SegmentScan>> _inFlight = new();
    private readonly Stack<SegmentWalker> _walkers = new();
    private readonly Stack<SegmentScan> _spareScans = new();
    private readonly int _ahead = Environment.ProcessorCount + 1;
    private int _next;

    public SegmentPipeline(IEnumerable<Microsoft.Diagnostics.Runtime.ClrSegment> segments, Func<SegmentWalker> newWalker)
    {
        _segments = segments.ToArray();
        _newWalker = newWalker;
    }

    /// <summary>The next segment's scan in address order, or null after the last.</summary>
    public SegmentScan? Next()
    {
        while (_inFlight.Count < _ahead && _next < _segments.Length)
        {
            var segment = _segments[_next++];
            SegmentWalker walker;
            SegmentScan scan;
            lock (_walkers)
            {
                walker = _walkers.Count > 0 ? _walkers.Pop() : _newWalker();
                scan = _spareScans.Count > 0 ? _spareScans.Pop() : new SegmentScan();
            }
            _inFlight.Enqueue(Task.Run(() =>
            {
                try
                {
                    walker.Walk(segment, scan);
                    return scan;
                }
                finally
                {
                    lock (_walkers)
                        _walkers.Push(walker);
                }
            }));
        }
        return _inFlight.Count == 0 ? null : _inFlight.Dequeue().GetAwaiter().GetResult();
    }

    /// <summary>Drop the idle walkers and spare scans (their buffers grew to the largest
    /// segment's objects and references) once the walk is over.</summary>
    public void Release()
    {
        lock (_walkers)
        {
            _walkers.Clear();
            _spareScans.Clear();
        }
    }

    /// <summary>A merged scan, to be filled again.</summary>
    public void Return(SegmentScan scan)
    {
        lock (_walkers)
            _spareScans.Push(scan);
    }
}
