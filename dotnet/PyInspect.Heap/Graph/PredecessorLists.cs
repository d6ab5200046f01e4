using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// The reverse graph, for retention paths: Of(v) lists the sources of the edges into node v,
/// ascending. Where each list starts is kept in 2 bytes per node, counted from its block of
/// 64 nodes (whose start takes 4 bytes); a block with 65,536 edges or more in keeps 4-byte
/// starts aside. About 2 bytes per node where plain offsets take 4.
/// </summary>
internal sealed class PredecessorLists : IDisposable
{
    private const int BlockShift = 6, BlockMask = (1 << BlockShift) - 1;
    private readonly MappedArray<int> _blockStarts;
    private readonly MappedArray<ushort> _within;
    private readonly int[]?[] _wide; // per block: null, or its 4-byte starts
    private readonly MappedArray<int> _sources;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public PredecessorLists(ArrayStore store, int nodeCount, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets)
    {
        int edges = offsets[nodeCount], blocks = (nodeCount >> BlockShift) + 1;
        _blockStarts = store.Sized<int>(blocks + 1);
        _within = store.Sized<ushort>(nodeCount + 1);
        var starts = _blockStarts.Span;
        var within = _within.Span;
        foreach (int t in targets[..edges])
            starts[(t >> BlockShift) + 1]++;
        _wide = new int[]?[blocks];
        for (int b = 0; b < blocks; b++)
            if (starts[b + 1] > ushort.MaxValue)
                _wide[b] = new int[1 << BlockShift];
        foreach (int t in targets[..edges]) // in-degrees, each one node on (a block's first node starts at 0)
            if ((t & BlockMask) != BlockMask)
                Set(t + 1, Get(t + 1, within) + 1, within);
        for (int v = 0; v <= nodeCount; v++) // in-degrees to starts within the block
            if ((v & BlockMask) != 0)
                Set(v, Get(v, within) + Get(v - 1, within), within);
        for (int b = 0; b < blocks; b++)
            starts[b + 1] += starts[b];
        _sources = store.Sized<int>(edges);
        var sources = _sources.Span;
        for (int v = 0; v < nodeCount; v++) // each list's start walks to its end
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
            {
                int t = targets[e], at = Get(t, within);
                sources[starts[t >> BlockShift] + at] = v;
                Set(t, at + 1, within);
            }
        for (int v = nodeCount; v >= 0; v--) // back to starts: a list starts where the one before ended
            Set(v, (v & BlockMask) == 0 ? 0 : Get(v - 1, within), within);
    }

    /// <summary>The sources of the edges into v, ascending.</summary>
    public ReadOnlySpan<int> Of(int v)
    {
        int start = Start(v), end = (v & BlockMask) == BlockMask ? _blockStarts[(v >> BlockShift) + 1] : Start(v + 1);
        return _sources.Span[start..end];
    }

    private int Start(int v)
    {
        int b = v >> BlockShift;
        return _blockStarts[b] + Get(v, _within.Span);
    }

    /// <summary>Node v's count (or start) within its block.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int Get(int v, Span<ushort> within) => _wide[v >> BlockShift] is { } wide ? wide[v & BlockMask] : within[v];

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Set(int v, int value, Span<ushort> within)
    {
        if (_wide[v >> BlockShift] is { } wide)
            wide[v & BlockMask] = value;
        else
            within[v] = (ushort)value;
    }

    public void Dispose()
    {
        _blockStarts.Dispose();
        _within.Dispose();
        _sources.Dispose();
    }
}
