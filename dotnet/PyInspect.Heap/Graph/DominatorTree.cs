using System.Runtime.CompilerServices;
using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// Immediate dominators of a directed graph given in CSR form (node i's successors are
/// targets[offsets[i] .. offsets[i+1])), by Semi-NCA: an iterative depth-first numbering,
/// semidominators with iterative path compression, then nearest common ancestors. No
/// recursion, so it runs on tens of millions of nodes; memory is three ints per node plus
/// the cross edges (8 bytes each: the edges from a node later in depth-first preorder).
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
    /// Three ints per node at once, plus the cross edges (those from a later node in preorder):
    /// the search gives each node its DFS-tree parent and the least of its predecessors
    /// before it (all a semidominator needs from them), and lists the cross edges, grouped by
    /// target on both cores. The semidominators then link nodes in reverse preorder, so a
    /// node is linked exactly when it is after the one being processed: the parents array is
    /// the forest's ancestors and a second array the least semidominator on each compressed
    /// path. A second search (a bit per node) gives back the parents and the preorder for the
    /// nearest common ancestors, which turn the parents into immediate dominators in place.
    /// Each loop stops at its next checkpoint once cancel is asked (OperationCanceledException).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal static MappedArray<int> Compute(ArrayStore store, int nodeCount, ReadOnlySpan<int> offsets, ReadOnlySpan<int> targets,
                                             int root, out MappedArray<int> preorder, PhaseTimes? times = null,
                                             CancellationToken cancel = default)
    {
        var watch = System.Diagnostics.Stopwatch.StartNew();
        void Lap(string phase)
        {
            times?.Add(phase, watch.Elapsed.TotalSeconds);
            watch.Restart();
        }
        MappedArray<int> New() => store.Sized<int>(nodeCount);
        var semi = New();
        int reached;
        MappedArray<ulong> cross;
        using (var ancestor = New())
        {
            using (var number = New())
                reached = DominatorSearch.FirstSearch(store, offsets, targets, root, number.Span, ancestor.Span, semi.Span, out cross,
                                                      cancel);
            Lap("dominators: depth-first order");
            using (cross)
            {
                DominatorSearch.SortByTarget(store, cross, cancel);
                Lap("dominators: cross edges grouped");
                using var best = New();
                Semidominators(reached, ancestor.Span, semi.Span, best.Span, cross.Span, cancel);
            }
        }
        Lap("dominators: semidominators");
        var order = store.Sized<int>(reached);
        using (var parent = store.Sized<int>(reached))
        {
            DominatorSearch.SecondSearch(store, offsets, targets, root, nodeCount, order.Span, parent.Span);
            // the second search looks at no token: one parameter more slowed its loop by a sixth
            // (10M objects: 0.090 s against 0.074); at 100M it is under a second
            cancel.ThrowIfCancellationRequested();
            Lap("dominators: second depth-first search");
            // parent[i] becomes idom[i] (preorder numbers): each reads only finished ones (d < i).
            var idomNumbered = parent.Span;
            var semis = semi.Span;
            for (int i = 1; i < reached; i++)
            {
                Checkpoint.At(i, cancel);
                int d = idomNumbered[i];
                while (d > semis[i])
                    d = idomNumbered[d];
                idomNumbered[i] = d;
            }
            var answer = semi.Span; // the semidominators are done with: the answer goes over them
            var ordered = order.Span;
            cancel.ThrowIfCancellationRequested();
            answer.Fill(-1);
            for (int i = 0; i < reached; i++)
                answer[ordered[i]] = ordered[idomNumbered[i]];
        }
        preorder = order;
        Lap("dominators: nearest common ancestors");
        return semi;
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

    /// <summary>Semidominators (preorder numbers) by Lengauer-Tarjan's simple eval/link. On
    /// entry ancestor holds the DFS-tree parents, semi each node's least predecessor before it
    /// in preorder (its parent or less), cross the edges from a later node (target &lt;&lt; 32 |
    /// source) grouped by target, ascending. Node w is processed after every node above it, which are the
    /// linked ones: a predecessor v below w would answer itself (semi[v] = v, not yet
    /// processed), so only the cross edges are evaluated. best[v] is the least
    /// semidominator on v's compressed path (below its tree's root).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void Semidominators(int reached, Span<int> ancestor, Span<int> semi, Span<int> best, ReadOnlySpan<ulong> cross,
                                       CancellationToken cancel)
    {
        var stack = new int[256];
        int next = cross.Length - 1;
        for (int w = reached - 1; w >= 1; w--)
        {
            Checkpoint.At(w, cancel);
            int least = semi[w];
            for (; next >= 0 && (int)(cross[next] >> 32) == w; next--)
            {
                int s = Eval((int)(uint)cross[next], w, ancestor, best, ref stack);
                if (s < least)
                    least = s;
            }
            semi[w] = least;
            best[w] = least;
        }
    }

    /// <summary>The least semidominator on linked node v's path below its tree's root (the
    /// first ancestor at or below w, not linked yet), compressing the path (the stack of
    /// nodes to compress grows only on long paths).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Eval(int v, int w, Span<int> ancestor, Span<int> best, ref int[] stack)
    {
        int top = 0, x = v;
        while (ancestor[x] > w)
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
            if (best[a] < best[y])
                best[y] = best[a];
            ancestor[y] = ancestor[a];
        }
        return best[v];
    }
}
