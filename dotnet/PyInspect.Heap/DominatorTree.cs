using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// Immediate dominators of a directed graph given in CSR form (node i's successors are
/// targets[offsets[i] .. offsets[i+1])), by Semi-NCA: an iterative depth-first numbering,
/// semidominators with iterative path compression, then nearest common ancestors. No
/// recursion, so it runs on tens of millions of nodes; memory is six ints per node plus
/// the predecessor lists.
/// </summary>
public static class DominatorTree
{
    /// <summary>idom[v] for every node (the root's is itself, an unreachable node's is -1).</summary>
    public static int[] Compute(int nodeCount, int[] offsets, int[] targets, int root) =>
        Compute(nodeCount, offsets, targets, root, out _);

    /// <summary>The same, also giving the depth-first preorder of the reached nodes: every
    /// node comes after its immediate dominator in it (a dominator is a DFS-tree ancestor).</summary>
    public static int[] Compute(int nodeCount, int[] offsets, int[] targets, int root, out int[] preorder)
    {
        var order = DepthFirstOrder(nodeCount, offsets, targets, root, out int[] number, out int[] parent);
        int reached = order.Length;
        var (predOffsets, preds) = Predecessors(order, number, offsets, targets);
        var semi = Semidominators(reached, parent, predOffsets, preds);
        var idomNumbered = new int[reached];
        for (int i = 1; i < reached; i++)
        {
            int d = parent[i];
            while (d > semi[i])
                d = idomNumbered[d];
            idomNumbered[i] = d;
        }
        var idom = new int[nodeCount];
        Array.Fill(idom, -1);
        for (int i = 0; i < reached; i++)
            idom[order[i]] = order[idomNumbered[i]];
        preorder = order;
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

    /// <summary>Preorder of the nodes reachable from root; number[v] its position (-1 if not
    /// reached), parent[i] the preorder number of i's DFS-tree parent.</summary>
    private static int[] DepthFirstOrder(int nodeCount, int[] offsets, int[] targets, int root,
                                         out int[] number, out int[] parentNumbered)
    {
        number = new int[nodeCount];
        Array.Fill(number, -1);
        var order = new int[nodeCount];
        var parents = new int[nodeCount];
        var stackNode = new int[nodeCount];
        var stackEdge = new int[nodeCount];
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
            if (number[w] >= 0)
                continue;
            number[w] = count;
            parents[count] = number[v];
            order[count++] = w;
            top++;
            stackNode[top] = w;
            stackEdge[top] = offsets[w];
        }
        Array.Resize(ref order, count);
        Array.Resize(ref parents, count);
        parentNumbered = parents;
        return order;
    }

    /// <summary>Predecessor lists in preorder numbers, for reached nodes only.</summary>
    private static (int[] Offsets, int[] Preds) Predecessors(int[] order, int[] number, int[] offsets, int[] targets)
    {
        int reached = order.Length;
        var counts = new int[reached + 1];
        for (int i = 0; i < reached; i++)
        {
            int v = order[i];
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
                if (number[targets[e]] >= 0)
                    counts[number[targets[e]] + 1]++;
        }
        for (int i = 0; i < reached; i++)
            counts[i + 1] += counts[i];
        var preds = new int[counts[reached]];
        var fill = (int[])counts.Clone();
        for (int i = 0; i < reached; i++)
        {
            int v = order[i];
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
            {
                int w = number[targets[e]];
                if (w >= 0)
                    preds[fill[w]++] = i;
            }
        }
        return (counts, preds);
    }

    /// <summary>Semidominators (preorder numbers) by Lengauer-Tarjan's simple eval/link.</summary>
    private static int[] Semidominators(int reached, int[] parent, int[] predOffsets, int[] preds)
    {
        var semi = new int[reached];
        var label = new int[reached];
        var ancestor = new int[reached];
        var stack = new int[Math.Max(1, reached)];
        for (int i = 0; i < reached; i++)
        {
            semi[i] = i;
            label[i] = i;
            ancestor[i] = -1;
        }
        for (int w = reached - 1; w >= 1; w--)
        {
            int best = semi[w];
            for (int e = predOffsets[w]; e < predOffsets[w + 1]; e++)
            {
                int u = Eval(preds[e], ancestor, label, semi, stack);
                if (semi[u] < best)
                    best = semi[u];
            }
            semi[w] = best;
            ancestor[w] = parent[w];
        }
        return semi;
    }

    private static int Eval(int v, int[] ancestor, int[] label, int[] semi, int[] stack)
    {
        if (ancestor[v] < 0)
            return v;
        int top = 0, x = v;
        while (ancestor[ancestor[x]] >= 0)
        {
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
