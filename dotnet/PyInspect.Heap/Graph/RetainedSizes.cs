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
    /// of the same type dominates (so nested instances are not counted twice). A walk of the
    /// dominator tree without a stack: a finished node's place among its dominator's
    /// children (listed in ascending order) is found again by binary search.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static long[] ByType(int typeCount, TypeIndices typeOf, RetainedArray retained, ReadOnlySpan<int> idom,
                                PredecessorLists children)
    {
        int root = retained.Length - 1;
        var byType = new long[typeCount];
        var open = new int[typeCount];
        int v = root, e = 0;
        while (true)
        {
            var below = children.Of(v);
            if (e < below.Length)
            {
                int w = below[e];
                int t = typeOf[w];
                if (open[t] == 0)
                    byType[t] += retained[w];
                open[t]++;
                v = w;
                e = 0;
                continue;
            }
            if (v == root)
                break;
            open[typeOf[v]]--;
            int parent = idom[v];
            e = children.Of(parent).BinarySearch(v) + 1;
            v = parent;
        }
        return byType;
    }
}
