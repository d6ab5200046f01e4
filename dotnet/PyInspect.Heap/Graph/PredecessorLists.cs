using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// A graph's reverse, for retention paths (and the dominator tree's children lists, the
/// reverse of each node's edge to its immediate dominator): Of(v) lists the sources of the
/// edges into node v, ascending. Where each list starts is kept in 2 bytes per node, counted
/// from its block of 64 nodes (whose start takes 4 bytes); a block with 65,536 edges or more
/// in (or a node with 65,535) keeps 4-byte starts aside. About 2 bytes per node where plain
/// offsets take 4.
/// </summary>
internal sealed class PredecessorLists : IDisposable
{
    private const int BlockShift = 6, BlockMask = (1 << BlockShift) - 1;
    private readonly MappedArray<int> _blockStarts;
    private readonly MappedArray<ushort> _within;
    private readonly int[]?[] _wide; // per block: null, or its 4-byte starts
    private readonly MappedArray<int> _sources;

    /// <summary>The reverse of a graph in CSR form (node v's edges are targets[offsets[v] .. offsets[v+1])).</summary>
    public static unsafe PredecessorLists Of(ArrayStore store, int nodeCount, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets)
    {
        fixed (int* offsetsAt = offsets, targetsAt = targets)
            return Build(store, nodeCount, new CsrEdges(offsetsAt, targetsAt, offsets[nodeCount]));
    }

    /// <summary>Each node's children in the dominator tree (idom[v] = -1 unreached, v for the root).</summary>
    public static unsafe PredecessorLists DominatorChildren(ArrayStore store, ReadOnlySpan<int> idom)
    {
        int edges = 0;
        for (int v = 0; v < idom.Length; v++)
            if (idom[v] >= 0 && idom[v] != v)
                edges++;
        fixed (int* idomAt = idom)
            return Build(store, idom.Length, new TreeEdges(idomAt, edges));
    }

    private PredecessorLists(MappedArray<int> blockStarts, MappedArray<ushort> within, int[]?[] wide, MappedArray<int> sources)
    {
        (_blockStarts, _within, _wide, _sources) = (blockStarts, within, wide, sources);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static PredecessorLists Build<TEdges>(ArrayStore store, int nodeCount, TEdges edges) where TEdges : struct, IEdges
    {
        int blocks = (nodeCount >> BlockShift) + 1;
        var blockStarts = store.Sized<int>(blocks + 1);
        var withinArray = store.Sized<ushort>(nodeCount + 1);
        var starts = blockStarts.Span;
        var within = withinArray.Span;
        var wide = new int[]?[blocks];
        for (int v = 0; v < nodeCount; v++) // in-degrees (a node with 65,535 edges in makes its block's counts 4-byte)
            for (int e = edges.First(v); e < edges.End(v); e++)
            {
                int t = edges.Target(e);
                if (wide[t >> BlockShift] is { } wideCounts)
                    wideCounts[t & BlockMask]++;
                else if (within[t] < ushort.MaxValue - 1)
                    within[t]++;
                else
                    (wide[t >> BlockShift] = Widened(within, t >> BlockShift))[t & BlockMask]++;
            }
        StartsWithinBlocks(nodeCount, starts, within, wide);
        var sourceArray = store.Sized<int>(edges.Count);
        var sources = sourceArray.Span;
        for (int v = 0; v < nodeCount; v++) // each list's start walks to its end
            for (int e = edges.First(v); e < edges.End(v); e++)
            {
                int t = edges.Target(e), at = Get(t, within, wide);
                sources[starts[t >> BlockShift] + at] = v;
                Set(t, at + 1, within, wide);
            }
        for (int v = nodeCount; v >= 0; v--) // back to starts: a list starts where the one before ended
            Set(v, (v & BlockMask) == 0 ? 0 : Get(v - 1, within, wide), within, wide);
        return new PredecessorLists(blockStarts, withinArray, wide, sourceArray);
    }

    /// <summary>In-degrees to each node's start within its block (4-byte when the block has
    /// 65,536 edges in or more), and each block's start.</summary>
    private static void StartsWithinBlocks(int nodeCount, Span<int> starts, Span<ushort> within, int[]?[] wide)
    {
        Span<int> degrees = stackalloc int[1 << BlockShift];
        for (int b = 0; b < wide.Length; b++)
        {
            int first = b << BlockShift, end = Math.Min(first + (1 << BlockShift), nodeCount + 1), total = 0;
            for (int v = first; v < end; v++)
                (degrees[v - first], total) = (total, total + Get(v, within, wide));
            if (total > ushort.MaxValue && wide[b] is null)
                wide[b] = new int[1 << BlockShift];
            for (int v = first; v < end; v++)
                Set(v, degrees[v - first], within, wide);
            starts[b + 1] = starts[b] + total;
        }
    }

    /// <summary>A block's counts so far, 4-byte.</summary>
    private static int[] Widened(Span<ushort> within, int block)
    {
        var counts = new int[1 << BlockShift];
        for (int i = 0; i < counts.Length && (block << BlockShift) + i < within.Length; i++)
            counts[i] = within[(block << BlockShift) + i];
        return counts;
    }

    /// <summary>The sources of the edges into v, ascending.</summary>
    public ReadOnlySpan<int> Of(int v)
    {
        int start = Start(v), end = (v & BlockMask) == BlockMask ? _blockStarts[(v >> BlockShift) + 1] : Start(v + 1);
        return _sources.Span[start..end];
    }

    private int Start(int v) => _blockStarts[v >> BlockShift] + Get(v, _within.Span, _wide);

    /// <summary>Node v's count (or start) within its block.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Get(int v, Span<ushort> within, int[]?[] wide) =>
        wide[v >> BlockShift] is { } starts ? starts[v & BlockMask] : within[v];

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Set(int v, int value, Span<ushort> within, int[]?[] wide)
    {
        if (wide[v >> BlockShift] is { } starts)
            starts[v & BlockMask] = value;
        else
            within[v] = (ushort)value;
    }

    public void Dispose()
    {
        _blockStarts.Dispose();
        _within.Dispose();
        _sources.Dispose();
    }

    /// <summary>A graph's edges as the builder reads them (a struct: each kind compiled on its own).</summary>
    private interface IEdges
    {
        int Count { get; }
        int First(int v);
        int End(int v);
        int Target(int e);
    }

    /// <summary>Edges in CSR form.</summary>
    private readonly unsafe struct CsrEdges(int* offsets, int* targets, int count) : IEdges
    {
        public int Count => count;
        public int First(int v) => offsets[v];
        public int End(int v) => offsets[v + 1];
        public int Target(int e) => targets[e];
    }

    /// <summary>One edge per node to its immediate dominator (none from the root or an unreached node).</summary>
    private readonly unsafe struct TreeEdges(int* idom, int count) : IEdges
    {
        public int Count => count;
        public int First(int v) => v;
        public int End(int v) => idom[v] >= 0 && idom[v] != v ? v + 1 : v;
        public int Target(int e) => idom[e];
    }
}
