using System.Runtime.CompilerServices;
using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// Immediate dominators of a directed graph given in CSR form (node i's successors are
/// targets[offsets[i] .. offsets[i+1])), by Semi-NCA: an iterative depth-first numbering,
/// semidominators with iterative path compression, then nearest common ancestors. No
/// recursion, so it runs on tens of millions of nodes; memory is seven ints per node plus
/// the predecessor lists.
/// </summary>
public static class DominatorTree
{
    /// <summary>idom[v] for every node (the root's is itself, an unreachable node's is -1).</summary>
    public static int[] Compute(int nodeCount, int[] offsets, int[] targets, int root) =>
        Compute(nodeCount, offsets, targets, root, out _);

    /// <summary>The same, also giving the depth-first preorder of the reached nodes: every
    /// node comes after its immediate dominator in it (a dominator is a DFS-tree ancestor).
    /// Working arrays are reused across phases: seven ints per node plus the predecessors.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static int[] Compute(int nodeCount, int[] offsets, int[] targets, int root, out int[] preorder)
    {
        var number = new int[nodeCount];
        var order = new int[nodeCount];
        var parent = new int[nodeCount];
        var scratchA = new int[nodeCount];
        var scratchB = new int[nodeCount];
        int reached = DepthFirstOrder(offsets, targets, root, number, order, parent, scratchA, scratchB);
        var (predOffsets, preds) = Predecessors(reached, order, number, offsets, targets);
        var idomNumbered = new int[reached];
        // number is free now: it becomes the forest's ancestors; scratchA/B become semi/label,
        // idomNumbered the path-compression stack until it is filled below.
        var semi = Semidominators(reached, parent, predOffsets, preds, semi: scratchA, label: scratchB,
                                  ancestor: number, stack: idomNumbered);
        idomNumbered[0] = 0; // the root is its own
        for (int i = 1; i < reached; i++)
        {
            int d = parent[i];
            while (d > semi[i])
                d = idomNumbered[d];
            idomNumbered[i] = d;
        }
        var idom = number;
        Array.Fill(idom, -1);
        for (int i = 0; i < reached; i++)
            idom[order[i]] = order[idomNumbered[i]];
        if (reached < nodeCount)
            Array.Resize(ref order, reached);
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

    /// <summary>Preorder of the nodes reachable from root into order (their count returned);
    /// number[v] its position (-1 if not reached), parent[i] the preorder number of i's
    /// DFS-tree parent. stackNode and stackEdge are working space.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int DepthFirstOrder(int[] offsets, int[] targets, int root, int[] number, int[] order,
                                       int[] parent, int[] stackNode, int[] stackEdge)
    {
        Array.Fill(number, -1);
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
            parent[count] = number[v];
            order[count++] = w;
            top++;
            stackNode[top] = w;
            stackEdge[top] = offsets[w];
        }
        return count;
    }

    /// <summary>Predecessor lists in preorder numbers, for reached nodes only (CSR, filled in place).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static (int[] Offsets, int[] Preds) Predecessors(int reached, int[] order, int[] number, int[] offsets, int[] targets)
    {
        var starts = new int[reached + 1];
        for (int i = 0; i < reached; i++)
        {
            int v = order[i];
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
                if (number[targets[e]] >= 0)
                    starts[number[targets[e]] + 1]++;
        }
        for (int i = 0; i < reached; i++)
            starts[i + 1] += starts[i];
        var preds = new int[starts[reached]];
        for (int i = 0; i < reached; i++)
        {
            int v = order[i];
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
            {
                int w = number[targets[e]];
                if (w >= 0)
                    preds[starts[w]++] = i; // starts[w] walks to w's end, which is w + 1's start
            }
        }
        for (int i = reached; i > 0; i--)
            starts[i] = starts[i - 1];
        starts[0] = 0;
        return (starts, preds);
    }

    /// <summary>Semidominators (preorder numbers) by Lengauer-Tarjan's simple eval/link,
    /// in the caller's arrays (each at least reached long).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int[] Semidominators(int reached, int[] parent, int[] predOffsets, int[] preds,
                                        int[] semi, int[] label, int[] ancestor, int[] stack)
    {
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

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
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
