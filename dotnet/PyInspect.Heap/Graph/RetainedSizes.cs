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
    public static long[] Compute(int[] idom, long[] sizes, int[] preorder)
    {
        var retained = new long[idom.Length];
        for (int i = preorder.Length - 1; i >= 1; i--)
        {
            int v = preorder[i];
            long total = retained[v] + sizes[v];
            retained[v] = total;
            retained[idom[v]] += total;
        }
        if (preorder.Length > 0 && preorder[0] < sizes.Length)
            retained[preorder[0]] += sizes[preorder[0]];
        return retained;
    }

    /// <summary>Per type: the summed retained size of its instances that no other instance
    /// of the same type dominates (so nested instances are not counted twice).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static long[] ByType(int typeCount, int[] typeOf, long[] retained, int[] childOffsets, int[] children)
    {
        int root = retained.Length - 1;
        var byType = new long[typeCount];
        var open = new int[typeCount];
        var stackNode = new int[retained.Length];
        var stackEdge = new int[retained.Length];
        int top = 0;
        stackNode[0] = root;
        stackEdge[0] = childOffsets[root];
        while (top >= 0)
        {
            int v = stackNode[top];
            int e = stackEdge[top];
            if (e == childOffsets[v + 1])
            {
                if (v != root)
                    open[typeOf[v]]--;
                top--;
                continue;
            }
            stackEdge[top] = e + 1;
            int w = children[e];
            int t = typeOf[w];
            if (open[t] == 0)
                byType[t] += retained[w];
            open[t]++;
            top++;
            stackNode[top] = w;
            stackEdge[top] = childOffsets[w];
        }
        return byType;
    }

    /// <summary>Each node's children in the dominator tree, in CSR form.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static (int[] Offsets, int[] Children) DominatorChildren(int[] idom)
    {
        int nodes = idom.Length;
        var offsets = new int[nodes + 1];
        for (int v = 0; v < nodes; v++)
            if (idom[v] >= 0 && idom[v] != v)
                offsets[idom[v] + 1]++;
        for (int v = 0; v < nodes; v++)
            offsets[v + 1] += offsets[v];
        var children = new int[offsets[nodes]];
        var fill = (int[])offsets.Clone();
        for (int v = 0; v < nodes; v++)
            if (idom[v] >= 0 && idom[v] != v)
                children[fill[idom[v]]++] = v;
        return (offsets, children);
    }
}
