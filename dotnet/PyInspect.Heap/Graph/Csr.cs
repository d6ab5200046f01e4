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

}
