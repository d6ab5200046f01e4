namespace PyInspect.Heap;

/// <summary>
/// The dominator tree cut into whole subtrees for <see cref="RetainedSizes.ByType"/> on
/// several cores. From the super-root it follows the child retaining most while that child
/// holds more than a quarter of a core's share (an application's heap hangs mostly under a few
/// static collections): the nodes of that path are counted here, and every other child of
/// a path node is the top of a subtree that a core walks, knowing the types open above it
/// (those of the path down to its parent). The subtrees are then dealt to the cores in path
/// order, each core a run of about equal retained bytes (a share of one node's children may
/// be split between two cores).
/// </summary>
internal sealed class TypeWalkShares
{
    /// <summary>The path stops this deep (a long chain): the rest is one core's.</summary>
    private const int MaxPath = 1 << 16;

    /// <summary>The subtrees of children [From, To) of Parent (its list's positions), under the path's first Depth types.</summary>
    public readonly record struct Share(int Parent, int From, int To, int Depth);

    private TypeWalkShares(List<int> pathTypes, long[] pathCounts, List<Share>[] parts)
    {
        (PathTypes, PathCounts, Parts) = (pathTypes, pathCounts, parts);
    }

    /// <summary>The types of the path's nodes, from the super-root's child down.</summary>
    public List<int> PathTypes { get; }

    /// <summary>Each core's shares, in path order.</summary>
    public List<Share>[] Parts { get; }

    /// <summary>The path's own counts: a node's retained size for its type when no node above it on the path has that type.</summary>
    public long[] PathCounts { get; }

    public static TypeWalkShares Of(int typeCount, TypeIndices typeOf, RetainedArray retained, PredecessorLists children, int parts)
    {
        int v = retained.Length - 1; // the super-root
        long heavyEnough = retained[v] / (4L * parts);
        var pathTypes = new List<int>();
        var pathCounts = new long[typeCount];
        var open = new int[typeCount];
        var shares = new List<Share>();
        while (true)
        {
            var below = children.Of(v);
            int heavy = -1;
            long most = heavyEnough;
            for (int i = 0; i < below.Length; i++)
                if (retained[below[i]] > most)
                    (most, heavy) = (retained[below[i]], i);
            if (heavy < 0 || pathTypes.Count == MaxPath)
            {
                shares.Add(new Share(v, 0, below.Length, pathTypes.Count));
                break;
            }
            shares.Add(new Share(v, 0, heavy, pathTypes.Count));
            shares.Add(new Share(v, heavy + 1, below.Length, pathTypes.Count));
            v = below[heavy];
            int t = typeOf[v];
            if (open[t]++ == 0)
                pathCounts[t] += retained[v];
            pathTypes.Add(t);
        }
        return new TypeWalkShares(pathTypes, pathCounts, Deal(shares, retained, children, parts));
    }

    /// <summary>The shares in order, cut into parts runs of about equal retained bytes.</summary>
    private static List<Share>[] Deal(List<Share> shares, RetainedArray retained, PredecessorLists children, int parts)
    {
        long total = 0;
        foreach (var share in shares)
            foreach (int w in children.Of(share.Parent)[share.From..share.To])
                total += retained[w];
        var dealt = Enumerable.Range(0, parts).Select(_ => new List<Share>()).ToArray();
        long done = 0;
        int p = 0;
        foreach (var share in shares)
        {
            var below = children.Of(share.Parent);
            int from = share.From;
            for (int i = share.From; i < share.To; i++)
            {
                done += retained[below[i]];
                if (p < parts - 1 && done >= total * (p + 1) / parts)
                {
                    dealt[p++].Add(share with { From = from, To = i + 1 });
                    from = i + 1;
                }
            }
            if (from < share.To)
                dealt[p].Add(share with { From = from });
        }
        return dealt;
    }
}
