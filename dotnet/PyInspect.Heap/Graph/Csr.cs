using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>Compressed sparse rows: node i's edges are targets[offsets[i] .. offsets[i+1]).</summary>
internal static class Csr
{
    public static (int[] Offsets, int[] Targets) FromEdges(int nodeCount, IReadOnlyList<(int From, int To)> edges)
    {
        var offsets = new int[nodeCount + 1];
        foreach (var (from, to) in edges)
        {
            if ((uint)from >= (uint)nodeCount || (uint)to >= (uint)nodeCount)
                throw new HeapTargetException("INVALID_PARAMETER", $"edge ({from}, {to}) outside 0..{nodeCount - 1}");
            offsets[from + 1]++;
        }
        for (int i = 0; i < nodeCount; i++)
            offsets[i + 1] += offsets[i];
        var targets = new int[edges.Count];
        var fill = (int[])offsets.Clone();
        foreach (var (from, to) in edges)
            targets[fill[from]++] = to;
        return (offsets, targets);
    }

    /// <summary>The reverse graph (every edge turned around), same node numbering.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static (MappedArray<int> Offsets, MappedArray<int> Sources) Reverse(ArrayStore store, int nodeCount,
                                                                              ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets)
    {
        var revArray = store.New<int>(nodeCount + 1);
        revArray.Resize(nodeCount + 1);
        var rev = revArray.Span;
        for (int e = 0; e < offsets[nodeCount]; e++)
            rev[targets[e] + 1]++;
        for (int i = 0; i < nodeCount; i++)
            rev[i + 1] += rev[i];
        var sourceArray = store.New<int>(offsets[nodeCount]);
        sourceArray.Resize(offsets[nodeCount]);
        var sources = sourceArray.Span;
        for (int v = 0; v < nodeCount; v++)
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
                sources[rev[targets[e]]++] = v; // rev[w] walks to w's end, which is w + 1's start
        for (int i = nodeCount; i > 0; i--)
            rev[i] = rev[i - 1];
        rev[0] = 0;
        return (revArray, sourceArray);
    }
}
