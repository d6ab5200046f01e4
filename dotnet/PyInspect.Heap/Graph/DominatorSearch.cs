using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// The two depth-first searches of <see cref="DominatorTree"/> (iterative, their stacks in
/// mapped arrays that grow with the search's depth) and the grouping of its cross edges.
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
                                  Span<int> number, Span<int> parent, Span<int> least, out MappedArray<ulong> cross,
                                  CancellationToken cancel = default)
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
                Checkpoint.At(count, cancel); // at each 2^20th node reached: the cheap place to look
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

    /// <summary>Group the cross edges by target, ascending (the order within a target kept):
    /// a stable radix sort on the target's two 16-bit halves, through a buffer as long, each
    /// pass counted and scattered on every core (each core its own share of the edges); a
    /// cancel is seen between the passes.</summary>
    public static unsafe void SortByTarget(ArrayStore store, MappedArray<ulong> cross, CancellationToken cancel = default)
    {
        using var buffer = store.Sized<ulong>(cross.Count);
        Pass((nint)cross.Pointer, (nint)buffer.Pointer, cross.Count, 32);
        cancel.ThrowIfCancellationRequested();
        Pass((nint)buffer.Pointer, (nint)cross.Pointer, cross.Count, 48);
        cancel.ThrowIfCancellationRequested();
    }

    /// <summary>One stable counting pass on the 16 bits at shift, from one array into the other.</summary>
    private static unsafe void Pass(nint fromAt, nint intoAt, int count, int shift)
    {
        const int Buckets = 1 << 16;
        int parts = Math.Max(1, Math.Min(Environment.ProcessorCount, count / (1 << 16)));
        var starts = new int[parts][];
        int Start(int part) => (int)((long)count * part / parts);
        Parallel.For(0, parts, p =>
        {
            var counts = new int[Buckets];
            var from = (ulong*)fromAt;
            for (int i = Start(p); i < Start(p + 1); i++)
                counts[(int)(from[i] >> shift) & (Buckets - 1)]++;
            starts[p] = counts;
        });
        int total = 0; // each part's first slot per bucket: the buckets in order, the parts in order within each
        for (int b = 0; b < Buckets; b++)
            for (int p = 0; p < parts; p++)
                (starts[p][b], total) = (total, total + starts[p][b]);
        Parallel.For(0, parts, p =>
        {
            var next = starts[p];
            ulong* from = (ulong*)fromAt, into = (ulong*)intoAt;
            for (int i = Start(p); i < Start(p + 1); i++)
            {
                ulong edge = from[i];
                into[next[(int)(edge >> shift) & (Buckets - 1)]++] = edge;
            }
        });
    }

    /// <summary>Twice the length, the span seen again (growing may move the mapping).</summary>
    private static void Grow<T>(MappedArray<T> array, ref Span<T> span) where T : unmanaged
    {
        array.Resize(2L * array.Count);
        span = array.Span;
    }
}
