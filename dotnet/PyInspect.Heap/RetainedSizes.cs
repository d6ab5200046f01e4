namespace PyInspect.Heap;

/// <summary>
/// Retained sizes from a dominator tree: an object's retained size is its own size plus
/// that of every object it dominates. Walks the tree iteratively (children in CSR form).
/// </summary>
internal static class RetainedSizes
{
    /// <summary>Retained size per node (super-root last); 0 for unreachable objects.</summary>
    public static long[] Compute(int[] idom, long[] sizes, out int[] childOffsets, out int[] children)
    {
        int nodes = idom.Length;
        int root = nodes - 1;
        (childOffsets, children) = DominatorChildren(idom);
        var retained = new long[nodes];
        var order = Preorder(root, childOffsets, children);
        for (int i = order.Length - 1; i >= 0; i--)
        {
            int v = order[i];
            retained[v] += v < sizes.Length ? sizes[v] : 0;
            if (v != root)
                retained[idom[v]] += retained[v];
        }
        return retained;
    }

    /// <summary>Per type: the summed retained size of its instances that no other instance
    /// of the same type dominates (so nested instances are not counted twice).</summary>
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

    private static (int[] Offsets, int[] Children) DominatorChildren(int[] idom)
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

    private static int[] Preorder(int root, int[] offsets, int[] children)
    {
        var order = new List<int>(children.Length + 1) { root };
        for (int i = 0; i < order.Count; i++)
        {
            int v = order[i];
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
                order.Add(children[e]);
        }
        return order.ToArray();
    }
}
