using System.Runtime.CompilerServices;
using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// Immediate dominators of a directed graph given in CSR form (node i's successors are
/// targets[offsets[i] .. offsets[i+1])), by Semi-NCA: an iterative depth-first numbering,
/// semidominators with iterative path compression, then nearest common ancestors. No
/// recursion, so it runs on tens of millions of nodes; memory is five ints per node plus
/// the predecessor lists.
/// </summary>
public static class DominatorTree
{
    /// <summary>idom[v] for every node (the root's is itself, an unreachable node's is -1).</summary>
    public static int[] Compute(int nodeCount, int[] offsets, int[] targets, int root)
    {
        using var idom = Compute(ArrayStore.InMemory, nodeCount, offsets, targets, root, out var preorder);
        preorder.Dispose();
        return idom.Span.ToArray();
    }

    /// <summary>The same, also giving the depth-first preorder of the reached nodes: every
    /// node comes after its immediate dominator in it (a dominator is a DFS-tree ancestor).
    /// Five ints per node at once plus the predecessors (six during the search): the DFS's numbers become the
    /// forest's ancestors, its two stacks the semidominators and labels, the DFS-tree
    /// parents the immediate dominators (computed in place), the labels the answer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal static MappedArray<int> Compute(ArrayStore store, int nodeCount, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets,
                                             int root, out MappedArray<int> preorder, PhaseTimes? times = null)
    {
        var watch = System.Diagnostics.Stopwatch.StartNew();
        void Lap(string phase)
        {
            times?.Add(phase, watch.Elapsed.TotalSeconds);
            watch.Restart();
        }
        MappedArray<int> New()
        {
            var array = store.New<int>(nodeCount);
            array.Resize(nodeCount);
            return array;
        }
        using var number = New();
        var order = New();
        using var parent = New();
        using var scratchA = New();
        var scratchB = New();
        var inDegree = New();
        int reached = DepthFirstOrder(offsets, targets, root, number.Span, order.Span, parent.Span, scratchA.Span, scratchB.Span,
                                      inDegree.Span);
        Lap("dominators: depth-first order");
        var (predOffsets, preds) = Predecessors(store, reached, order, number, offsets, targets, inDegree);
        Lap("dominators: predecessors");
        using (predOffsets)
        using (preds)
            Semidominators(reached, parent.Span, predOffsets.Span, preds.Span, semi: scratchA.Span, label: scratchB.Span,
                           ancestor: number.Span);
        Lap("dominators: semidominators");
        // parent[i] becomes idom[i] (preorder numbers): each reads only finished ones (d < i).
        var idomNumbered = parent.Span;
        var semi = scratchA.Span;
        idomNumbered[0] = 0; // the root is its own
        for (int i = 1; i < reached; i++)
        {
            int d = idomNumbered[i];
            while (d > semi[i])
                d = idomNumbered[d];
            idomNumbered[i] = d;
        }
        var idom = scratchB;
        var answer = idom.Span;
        var ordered = order.Span;
        answer.Fill(-1);
        for (int i = 0; i < reached; i++)
            answer[ordered[i]] = ordered[idomNumbered[i]];
        order.Resize(reached);
        order.Trim();
        preorder = order;
        Lap("dominators: nearest common ancestors");
        return idom;
    }

    /// <summary>The same on a JSON graph {"nodes": n, "root": r, "edges": [[from, to], ...]}, answering the idom array.
    /// A test entry point: Python checks it against a naive algorithm on random graphs.</summary>
    public static string ComputeJson(string graphJson)
    {
        using var doc = JsonDocument.Parse(graphJson);
        int n = doc.RootElement.GetProperty("nodes").GetInt32();
        int root = doc.RootElement.GetProperty("root").GetInt32();
        var edges = doc.RootElement.GetProperty("edges").EnumerateArray()
            .Select(e => (e[0].GetInt32(), e[1].GetInt32())).ToList();
        var (offsets, targets) = Csr.FromEdges(n, edges);
        return JsonSerializer.Serialize(Compute(n, offsets, targets, root));
    }

    /// <summary>Preorder of the nodes reachable from root into order (their count returned);
    /// number[v] its position (-1 if not reached), parent[i] the preorder number of i's
    /// DFS-tree parent, inDegree[v] (zeroed) its edges from reached nodes (every edge the
    /// search follows). stackNode and stackEdge are working space.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int DepthFirstOrder(ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets, int root, Span<int> number,
                                       Span<int> order, Span<int> parent, Span<int> stackNode, Span<int> stackEdge,
                                       Span<int> inDegree)
    {
        number.Fill(-1);
        int count = 0, top = 0;
        number[root] = count;
        order[count++] = root;
        stackNode[0] = root;
        stackEdge[0] = offsets[root];
        while (top >= 0)
        {
            int v = stackNode[top];
            int e = stackEdge[top];
            if (e == offsets[v + 1])
            {
                top--;
                continue;
            }
            stackEdge[top] = e + 1;
            int w = targets[e];
            inDegree[w]++;
            if (number[w] >= 0)
                continue;
            number[w] = count;
            parent[count] = number[v];
            order[count++] = w;
            top++;
            stackNode[top] = w;
            stackEdge[top] = offsets[w];
        }
        return count;
    }

    /// <summary>Predecessor lists in preorder numbers, for reached nodes only (CSR), from the
    /// in-degrees the search counted (then dropped): one pass over the edges, not two.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static (MappedArray<int> Offsets, MappedArray<int> Preds) Predecessors(
        ArrayStore store, int reached, MappedArray<int> order, MappedArray<int> number, ReadOnlySpan<int> offsets,
        ReadOnlySpan<int> targets, MappedArray<int> inDegree)
    {
        var startArray = store.New<int>(reached + 1);
        startArray.Resize(reached + 1);
        var starts = startArray.Span;
        var ordered = order.Span;
        using (inDegree)
        {
            var degree = inDegree.Span;
            for (int i = 0; i < reached; i++)
                starts[i + 1] = starts[i] + degree[ordered[i]];
        }
        var predArray = store.New<int>(starts[reached]);
        predArray.Resize(starts[reached]);
        var preds = predArray.Span;
        var numbers = number.Span;
        for (int i = 0; i < reached; i++)
        {
            int v = ordered[i];
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
                preds[starts[numbers[targets[e]]]++] = i;
        }
        for (int i = reached; i > 0; i--)
            starts[i] = starts[i - 1]; // each start walked to its list's end, the next list's start
        starts[0] = 0;
        return (startArray, predArray);
    }

    /// <summary>Semidominators (preorder numbers) by Lengauer-Tarjan's simple eval/link,
    /// in the caller's arrays (each at least reached long).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void Semidominators(int reached, ReadOnlySpan<int> parent, ReadOnlySpan<int> predOffsets, ReadOnlySpan<int> preds,
                                       Span<int> semi, Span<int> label, Span<int> ancestor)
    {
        for (int i = 0; i < reached; i++)
        {
            semi[i] = i;
            label[i] = i;
            ancestor[i] = -1;
        }
        var stack = new int[256];
        for (int w = reached - 1; w >= 1; w--)
        {
            int best = semi[w];
            for (int e = predOffsets[w]; e < predOffsets[w + 1]; e++)
            {
                int u = Eval(preds[e], ancestor, label, semi, ref stack);
                if (semi[u] < best)
                    best = semi[u];
            }
            semi[w] = best;
            ancestor[w] = parent[w];
        }
    }

    /// <summary>The label with the least semidominator on v's forest path, compressing the
    /// path (the stack of nodes to compress grows only on long paths).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Eval(int v, Span<int> ancestor, Span<int> label, Span<int> semi, ref int[] stack)
    {
        if (ancestor[v] < 0)
            return v;
        int top = 0, x = v;
        while (ancestor[ancestor[x]] >= 0)
        {
            if (top == stack.Length)
                Array.Resize(ref stack, stack.Length * 2);
            stack[top++] = x;
            x = ancestor[x];
        }
        while (top > 0)
        {
            int y = stack[--top];
            int a = ancestor[y];
            if (semi[label[a]] < semi[label[y]])
                label[y] = label[a];
            ancestor[y] = ancestor[a];
        }
        return label[v];
    }
}
