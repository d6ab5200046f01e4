using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// The two depth-first searches of <see cref="DominatorTree"/> (iterative, their stacks in
/// mapped arrays that grow with the search's depth) and the sort of its cross edges.
/// Both searches follow the edges in the same order, so they number the nodes alike.
/// </summary>
internal static class DominatorSearch
{
    private const int FirstStack = 4096;

    /// <summary>Preorder numbers from root (number[v], -1 if not reached; their count returned),
    /// parent[i] the preorder number of i's DFS-tree parent, least[i] the least preorder
    /// number of i's predecessors before it (the parent, or a DFS-tree ancestor by a forward
    /// edge), and cross the edges from a later node to an earlier one except the root, as
    /// (target &lt;&lt; 32 | source) in preorder numbers, in the order met.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static int FirstSearch(ArrayStore store, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets, int root,
                                  Span<int> number, Span<int> parent, Span<int> least, out MappedArray<ulong> cross)
    {
        number.Fill(-1);
        using var nodeStack = store.Sized<int>( FirstStack);
        using var edgeStack = store.Sized<int>( FirstStack);
        cross = store.Sized<ulong>( FirstStack);
        Span<int> nodes = nodeStack.Span, edges = edgeStack.Span;
        Span<ulong> crossed = cross.Span;
        int count = 0, top = 0, crossCount = 0;
        number[root] = count;
        parent[count] = 0;
        least[count++] = 0;
        nodes[0] = root;
        edges[0] = offsets[root];
        while (top >= 0)
        {
            int v = nodes[top], e = edges[top];
            if (e == offsets[v + 1])
            {
                top--;
                continue;
            }
            edges[top] = e + 1;
            int w = targets[e], nv = number[v], nw = number[w];
            if (nw < 0)
            {
                number[w] = count;
                parent[count] = nv;
                least[count++] = nv;
                if (++top == nodes.Length)
                {
                    Grow(nodeStack, ref nodes);
                    Grow(edgeStack, ref edges);
                }
                nodes[top] = w;
                edges[top] = offsets[w];
            }
            else if (nv < nw)
            {
                if (nv < least[nw])
                    least[nw] = nv;
            }
            else if (nv > nw && nw > 0)
            {
                if (crossCount == crossed.Length)
                    Grow(cross, ref crossed);
                crossed[crossCount++] = (ulong)nw << 32 | (uint)nv;
            }
        }
        cross.Resize(crossCount);
        return count;
    }

    /// <summary>The same search again, with one bit per node for "seen": order[i] the node
    /// numbered i, parent[i] the number of its DFS-tree parent.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void SecondSearch(ArrayStore store, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets, int root,
                                    int nodeCount, Span<int> order, Span<int> parent)
    {
        using var seenBits = store.Sized<ulong>( nodeCount / 64 + 1);
        using var nodeStack = store.Sized<int>( FirstStack);
        using var edgeStack = store.Sized<int>( FirstStack);
        using var numberStack = store.Sized<int>( FirstStack);
        Span<ulong> seen = seenBits.Span;
        Span<int> nodes = nodeStack.Span, edges = edgeStack.Span, numbers = numberStack.Span;
        int count = 0, top = 0;
        seen[root >> 6] |= 1UL << root;
        order[count] = root;
        parent[count] = 0;
        nodes[0] = root;
        edges[0] = offsets[root];
        numbers[0] = count++;
        while (top >= 0)
        {
            int v = nodes[top], e = edges[top];
            if (e == offsets[v + 1])
            {
                top--;
                continue;
            }
            edges[top] = e + 1;
            int w = targets[e];
            if ((seen[w >> 6] & (1UL << w)) != 0)
                continue;
            seen[w >> 6] |= 1UL << w;
            order[count] = w;
            parent[count] = numbers[top];
            if (++top == nodes.Length)
            {
                Grow(nodeStack, ref nodes);
                Grow(edgeStack, ref edges);
                Grow(numberStack, ref numbers);
            }
            nodes[top] = w;
            edges[top] = offsets[w];
            numbers[top] = count++;
        }
    }

    /// <summary>Sort the cross edges (ascending: by target, then source) on every core: split
    /// in place around the median of a sample, then each part sorted on its own.</summary>
    public static unsafe void SortByTarget(MappedArray<ulong> cross)
    {
        var all = cross.Span;
        if (all.Length < 1 << 16)
        {
            all.Sort();
            return;
        }
        var sample = new ulong[1023];
        for (int i = 0; i < sample.Length; i++)
            sample[i] = all[(int)((long)all.Length * i / sample.Length)];
        Array.Sort(sample);
        ulong pivot = sample[sample.Length / 2];
        int split = 0; // [0, split) below the pivot
        for (int i = 0; i < all.Length; i++)
            if (all[i] < pivot)
                (all[i], all[split]) = (all[split++], all[i]);
        nint at = (nint)cross.Pointer;
        int length = all.Length;
        Parallel.Invoke(() => new Span<ulong>((ulong*)at, split).Sort(),
                        () => new Span<ulong>((ulong*)at + split, length - split).Sort());
    }

    /// <summary>Twice the length, the span seen again (growing may move the mapping).</summary>
    private static void Grow<T>(MappedArray<T> array, ref Span<T> span) where T : unmanaged
    {
        array.Resize(2L * array.Count);
        span = array.Span;
    }
}
