namespace PyInspect.Heap;

/// <summary>
/// Breadth-first search backwards from one object over the snapshot's predecessor lists, so
/// every root object is met at its shortest distance. It stops once the root objects met
/// hold the roots asked for: the paths of those are already known then, so the answer is the
/// full search's. Memory: a bit per object for "seen" and, per object met, its queue entry
/// (the object and the queue position of the one it leads to), in arrays that grow with the search.
/// </summary>
internal sealed class BackwardSearch : IDisposable
{
    private readonly MappedArray<ulong> _seen;
    private readonly MappedArray<int> _nodes;
    private readonly MappedArray<int> _from;

    public BackwardSearch(HeapGraph g, int target, ILookup<int, GraphRoot> roots, int wanted)
    {
        var predecessors = g.Predecessors();
        int n = g.ObjectCount;
        _seen = g.Store.Sized<ulong>( n / 64 + 1);
        _nodes = g.Store.Sized<int>( 4096);
        _from = g.Store.Sized<int>( 4096);
        var seen = _seen.Span;
        Span<int> nodes = _nodes.Span, from = _from.Span;
        seen[target >> 6] |= 1UL << target;
        nodes[0] = target;
        int head = 0, tail = 1, rootsMet = 0;
        for (; head < tail && rootsMet < wanted; head++)
        {
            int v = nodes[head];
            if (roots.Contains(v))
            {
                RootsFound.Add(head);
                rootsMet += roots[v].Count();
            }
            foreach (int u in predecessors.Of(v))
            {
                if (u >= n || (seen[u >> 6] & (1UL << u)) != 0)
                    continue; // the super-root, or already seen
                seen[u >> 6] |= 1UL << u;
                if (tail == nodes.Length)
                {
                    _nodes.Resize(2L * tail);
                    _from.Resize(2L * tail);
                    nodes = _nodes.Span;
                    from = _from.Span;
                }
                nodes[tail] = u;
                from[tail++] = head;
            }
        }
    }

    /// <summary>Queue positions of the root objects met, nearest first.</summary>
    public List<int> RootsFound { get; } = new();

    /// <summary>The object at a queue position (0 is the target).</summary>
    public int Node(int position) => _nodes[position];

    /// <summary>The queue position of the object one step closer to the target.</summary>
    public int From(int position) => _from[position];

    public void Dispose()
    {
        _seen.Dispose();
        _nodes.Dispose();
        _from.Dispose();
    }
}
