using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// Test entries for what is built on the dominator tree on several cores (per-type retained
/// sizes, their shares dealt to 1 to 4 cores) and for the predecessor lists: each beside a
/// plain method (a depth-first walk with a stack, lists of a list per node), on a heap's graph
/// (<see cref="GraphCheck"/>) or on a small graph given as JSON (random graphs from Python).
/// </summary>
public static class TreeSumsCheck
{
    /// <summary>The core counts the per-type sums are checked with.</summary>
    private static readonly int[] CoreCounts = [1, 2, 3, 4];

    /// <summary>On {"objects": n, "types": [n], "sizes": [n], "typeCount": k, "edges": [[from, to], ...]}
    /// (node n is the super-root, its edges the roots): JSON {"idom", "retained", "predecessors",
    /// "byType": one list per core count 1-4}.</summary>
    public static string TreeSums(string graphJson)
    {
        using var doc = JsonDocument.Parse(graphJson);
        var top = doc.RootElement;
        int n = top.GetProperty("objects").GetInt32(), typeCount = top.GetProperty("typeCount").GetInt32();
        int[] types = top.GetProperty("types").EnumerateArray().Select(e => e.GetInt32()).ToArray();
        long[] objectSizes = top.GetProperty("sizes").EnumerateArray().Select(e => e.GetInt64()).ToArray();
        var edges = top.GetProperty("edges").EnumerateArray().Select(e => (e[0].GetInt32(), e[1].GetInt32())).ToList();
        var (offsets, targets) = Csr.FromEdges(n + 1, edges);
        var store = ArrayStore.InMemory;
        using var typeOf = new TypeIndices(store, n);
        typeOf.AddRange(types, Enumerable.Range(0, typeCount).ToArray());
        using var sizes = new ObjectSizes(store, n);
        sizes.AddRange(objectSizes);
        using var idom = DominatorTree.Compute(store, n + 1, offsets, targets, n, out var preorder);
        using var retained = RetainedSizes.Compute(store, idom.Span, sizes, preorder.Span);
        preorder.Dispose();
        using var children = PredecessorLists.DominatorChildren(store, idom.Span);
        using var predecessors = PredecessorLists.Of(store, n + 1, offsets, targets);
        return JsonSerializer.Serialize(new
        {
            idom = idom.Span.ToArray(),
            retained = Enumerable.Range(0, n + 1).Select(v => retained[v]).ToArray(),
            predecessors = Enumerable.Range(0, n + 1).Select(v => predecessors.Of(v).ToArray()).ToArray(),
            byType = CoreCounts.Select(parts => RetainedSizes.ByType(typeCount, typeOf, retained, idom.Span, children, parts)).ToArray(),
        });
    }

    /// <summary>The heap graph's per-type retained sizes on 1 to 4 cores beside <see cref="ReferenceByType"/>
    /// (from the independent dominators and retained sizes), and its predecessor lists beside
    /// plain ones: the first differences.</summary>
    internal static List<string> Differences(HeapGraph g, int[] idom, long[] retained, int maxDifferences)
    {
        var differences = new List<string>();
        var reference = ReferenceByType(idom, retained, v => g.TypeOf[v], g.TypeNames.Length, g.SuperRoot);
        using (var children = PredecessorLists.DominatorChildren(g.Store, g.Idom.Span))
            foreach (int parts in CoreCounts)
            {
                var byType = RetainedSizes.ByType(g.TypeNames.Length, g.TypeOf, g.Retained, g.Idom.Span, children, parts);
                int t = Enumerable.Range(0, byType.Length).FirstOrDefault(t => byType[t] != reference[t], -1);
                if (t >= 0)
                    differences.Add($"retained by type on {parts} cores: type {t} {byType[t]}, reference {reference[t]}");
            }
        var lists = g.Predecessors();
        var plain = PlainPredecessors(g.ObjectCount + 1, g.Offsets.Span, g.Targets.Span);
        for (int v = 0; v < plain.Length && differences.Count < maxDifferences; v++)
            if (!lists.Of(v).SequenceEqual(plain[v].ToArray()))
                differences.Add($"predecessors of node {v}: {lists.Of(v).Length}, plainly {plain[v].Count}");
        return differences;
    }

    /// <summary>Per type, the retained sizes of its reached instances with no instance of the
    /// same type above them in the dominator tree: a depth-first walk with a stack.</summary>
    private static long[] ReferenceByType(int[] idom, long[] retained, Func<int, int> typeOf, int typeCount, int root)
    {
        var children = new List<int>[idom.Length];
        for (int v = 0; v < idom.Length; v++)
            if (idom[v] >= 0 && v != root)
                (children[idom[v]] ??= []).Add(v);
        var byType = new long[typeCount];
        var open = new int[typeCount];
        var stack = new Stack<(int Node, bool Leaving)>();
        foreach (int v in children[root] ?? [])
            stack.Push((v, false));
        while (stack.Count > 0)
        {
            var (v, leaving) = stack.Pop();
            if (leaving)
            {
                open[typeOf(v)]--;
                continue;
            }
            if (open[typeOf(v)]++ == 0)
                byType[typeOf(v)] += retained[v];
            stack.Push((v, true));
            foreach (int w in children[v] ?? [])
                stack.Push((w, false));
        }
        return byType;
    }

    private static List<int>[] PlainPredecessors(int nodeCount, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets)
    {
        var lists = Enumerable.Range(0, nodeCount).Select(_ => new List<int>()).ToArray();
        for (int v = 0; v < nodeCount; v++)
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
                lists[targets[e]].Add(v);
        return lists;
    }
}
