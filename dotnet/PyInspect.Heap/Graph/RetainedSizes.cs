using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// Retained sizes from a dominator tree: an object's retained size is its own size plus
/// that of every object it dominates. Sums in reverse depth-first preorder (every node
/// comes after its immediate dominator there), so no tree walk is needed.
/// </summary>
internal static class RetainedSizes
{
    /// <summary>Retained size per node (super-root last, preorder[0]); 0 for unreachable objects.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static RetainedArray Compute(ArrayStore store, ReadOnlySpan<int> idom, ObjectSizes sizes, ReadOnlySpan<int> preorder,
                                        CancellationToken cancel = default)
    {
        var result = new RetainedArray(store, idom.Length, sizes);
        result.Sum(idom, sizes, preorder, cancel);
        return result;
    }

    /// <summary>Per type: the summed retained size of its instances that no other instance
    /// of the same type dominates (so nested instances are not counted twice), on every core.
    /// The tree is cut into shares of whole subtrees (<see cref="TypeWalkShares"/>); each core
    /// walks its shares with its own counts, starting from the types open on their path, and
    /// the counts are added up (the same sums in any order).</summary>
    public static long[] ByType(int typeCount, TypeIndices typeOf, RetainedArray retained, ReadOnlySpan<int> idom,
                                PredecessorLists children, int parts = 0)
    {
        var shares = TypeWalkShares.Of(typeCount, typeOf, retained, children, parts > 0 ? parts : Environment.ProcessorCount);
        var byPart = new long[shares.Parts.Length][];
        unsafe
        {
            fixed (int* idomAt = idom)
            {
                nint at = (nint)idomAt;
                int length = idom.Length;
                Parallel.For(0, byPart.Length, p =>
                    byPart[p] = WalkShares(typeCount, typeOf, retained, new ReadOnlySpan<int>((int*)at, length), children,
                                           shares.PathTypes, shares.Parts[p]));
            }
        }
        var byType = shares.PathCounts; // the path's own counts, the cores' added to them
        foreach (var counts in byPart)
            for (int t = 0; t < typeCount; t++)
                byType[t] += counts[t];
        return byType;
    }

    /// <summary>One core's shares, in path order: the types of the path above each share are
    /// opened as the shares go deeper, then each child's subtree is walked.</summary>
    private static long[] WalkShares(int typeCount, TypeIndices typeOf, RetainedArray retained, ReadOnlySpan<int> idom,
                                     PredecessorLists children, List<int> pathTypes, List<TypeWalkShares.Share> shares)
    {
        var byType = new long[typeCount];
        var open = new int[typeCount];
        int depth = 0;
        foreach (var share in shares)
        {
            while (depth < share.Depth)
                open[pathTypes[depth++]]++;
            for (int i = share.From; i < share.To; i++)
                WalkSubtree(children.Of(share.Parent)[i], byType, open, typeOf, retained, idom, children);
        }
        return byType;
    }

    /// <summary>The subtree of top, counted: a walk of the dominator tree without a stack (a
    /// finished node's place among its dominator's children, listed ascending, is found again
    /// by binary search); open counts the instances of each type on the way down.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void WalkSubtree(int top, long[] byType, int[] open, TypeIndices typeOf, RetainedArray retained,
                                    ReadOnlySpan<int> idom, PredecessorLists children)
    {
        int v = top, e = 0;
        int t = typeOf[v];
        if (open[t]++ == 0)
            byType[t] += retained[v];
        while (true)
        {
            var below = children.Of(v);
            if (e < below.Length)
            {
                int w = below[e];
                t = typeOf[w];
                if (open[t]++ == 0)
                    byType[t] += retained[w];
                v = w;
                e = 0;
                continue;
            }
            open[typeOf[v]]--;
            if (v == top)
                return;
            int parent = idom[v];
            e = children.Of(parent).BinarySearch(v) + 1;
            v = parent;
        }
    }
}
