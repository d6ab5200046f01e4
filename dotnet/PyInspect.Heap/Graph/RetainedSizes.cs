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
    public static RetainedArray Compute(ArrayStore store, ReadOnlySpan<int> idom, ObjectSizes sizes, ReadOnlySpan<int> preorder)
    {
        var result = new RetainedArray(store, idom.Length, sizes);
        result.Sum(idom, sizes, preorder);
        return result;
    }

    /// <summary>Per type: the summed retained size of its instances that no other instance
    /// of the same type dominates (so nested instances are not counted twice). A walk of the
    /// dominator tree without a stack: a finished node's place among its dominator's
    /// children (listed in ascending order) is found again by binary search.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static long[] ByType(int typeCount, TypeIndices typeOf, RetainedArray retained, ReadOnlySpan<int> idom,
                                ReadOnlySpan<int> childOffsets, ReadOnlySpan<int> children)
    {
        int root = retained.Length - 1;
        var byType = new long[typeCount];
        var open = new int[typeCount];
        int v = root, e = childOffsets[root];
        while (true)
        {
            if (e < childOffsets[v + 1])
            {
                int w = children[e];
                int t = typeOf[w];
                if (open[t] == 0)
                    byType[t] += retained[w];
                open[t]++;
                v = w;
                e = childOffsets[w];
                continue;
            }
            if (v == root)
                break;
            open[typeOf[v]]--;
            int parent = idom[v], first = childOffsets[parent];
            e = first + children[first..childOffsets[parent + 1]].BinarySearch(v) + 1;
            v = parent;
        }
        return byType;
    }

    /// <summary>Each node's children in the dominator tree, in CSR form.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static (MappedArray<int> Offsets, MappedArray<int> Children) DominatorChildren(ArrayStore store, ReadOnlySpan<int> idom)
    {
        int nodes = idom.Length;
        var offsetArray = store.New<int>(nodes + 1);
        offsetArray.Resize(nodes + 1);
        var offsets = offsetArray.Span;
        for (int v = 0; v < nodes; v++)
            if (idom[v] >= 0 && idom[v] != v)
                offsets[idom[v] + 1]++;
        for (int v = 0; v < nodes; v++)
            offsets[v + 1] += offsets[v];
        var childArray = store.New<int>(offsets[nodes]);
        childArray.Resize(offsets[nodes]);
        var children = childArray.Span;
        for (int v = 0; v < nodes; v++)
            if (idom[v] >= 0 && idom[v] != v)
                children[offsets[idom[v]]++] = v; // offsets[d] walks to d's end, which is d + 1's start
        for (int v = nodes; v > 0; v--)
            offsets[v] = offsets[v - 1];
        offsets[0] = 0;
        return (offsetArray, childArray);
    }
}
