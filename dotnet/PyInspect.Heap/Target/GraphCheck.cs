using System.Diagnostics;
using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// Test entry for the heap graph: its dominators and retained sizes against an independent
/// method (Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder, and sums
/// up the dominator tree by depth; the per-type sums and predecessor lists by <see cref="TreeSumsCheck"/>), and the same graph built with its arrays in files of a
/// work folder against the one in memory, every array element by element.
/// </summary>
public static class GraphCheck
{
    /// <summary>JSON: counts, the first differences of each kind, the disk build's folder, seconds.</summary>
    public static string Compare(HeapTarget target, string workFolder, int maxDifferences)
    {
        var watch = Stopwatch.StartNew();
        var memory = target.StartGraph("", null, 0).Finish();
        var disk = target.StartGraph("", workFolder, 1).Finish();
        int[] idom = ReferenceDominators(memory);
        long[] retained = ReferenceRetained(memory, idom);
        var idomDifferences = new List<string>();
        var retainedDifferences = new List<string>();
        for (int v = 0; v <= memory.ObjectCount; v++)
        {
            if (memory.Idom[v] != idom[v] && idomDifferences.Count < maxDifferences)
                idomDifferences.Add($"node {v}: idom {memory.Idom[v]}, reference {idom[v]}");
            if (memory.Retained[v] != retained[v] && retainedDifferences.Count < maxDifferences)
                retainedDifferences.Add($"node {v}: retained {memory.Retained[v]}, reference {retained[v]}");
        }
        var treeDifferences = TreeSumsCheck.Differences(memory, idom, retained, maxDifferences);
        var diskDifferences = new List<string>();
        void Same<T>(string name, ReadOnlySpan<T> a, ReadOnlySpan<T> b) where T : IEquatable<T>
        {
            if (!a.SequenceEqual(b) && diskDifferences.Count < maxDifferences)
                diskDifferences.Add($"{name}: {a.Length} in memory, {b.Length} on disk, first difference at {FirstDifference(a, b)}");
        }
        Same("addresses", Widened(memory.Addresses), Widened(disk.Addresses));
        Same("typeOf", Widened(memory.TypeOf), Widened(disk.TypeOf));
        Same("sizes", memory.Sizes.Narrow, disk.Sizes.Narrow);
        Same("generations", Widened(memory.Generations), Widened(disk.Generations));
        Same("offsets", memory.Offsets.Span, disk.Offsets.Span);
        Same("targets", memory.Targets.Span, disk.Targets.Span);
        Same("idom", memory.Idom.Span, disk.Idom.Span);
        Same("retained", Widened(memory.Retained), Widened(disk.Retained));
        Same("retainedByType", memory.RetainedByType, disk.RetainedByType);
        return JsonSerializer.Serialize(new
        {
            objects = memory.ObjectCount, edges = memory.Targets.Length,
            live = Enumerable.Range(0, memory.ObjectCount).Count(memory.IsLive),
            idomDifferences, retainedDifferences, treeDifferences, diskDifferences,
            memoryFolder = memory.WorkFolder, diskFolder = disk.WorkFolder, seconds = watch.Elapsed.TotalSeconds,
        });
    }

    /// <summary>Type numbers kept in 2 bytes, then a 65,535th type: every number read back as
    /// written, in memory and in a work folder. JSON: the numbers read back from each.</summary>
    public static string TypeNumbersWiden(string workFolder)
    {
        int[] global = [0, 7, 65534, 65535, 1 << 20];
        var answers = new List<int[]>();
        foreach (var store in new[] { ArrayStore.InMemory, ArrayStore.For(1, workFolder, 1) })
        {
            using var types = new TypeIndices(store, 2);
            types.AddRange([0, 1, 2], global[..3]);
            types.AddRange([0, 1, 2, 3, 4], global);
            answers.Add(Widened(types));
        }
        return JsonSerializer.Serialize(answers);
    }

    private static int[] Widened(TypeIndices types)
    {
        var all = new int[types.Length];
        types.CopyTo(0, all);
        return all;
    }

    private static long[] Widened(RetainedArray retained)
    {
        var all = new long[retained.Length];
        retained.CopyTo(0, all);
        return all;
    }

    private static byte[] Widened(ObjectGenerations generations)
    {
        var all = new byte[generations.Length];
        generations.CopyTo(0, all);
        return all;
    }

    private static ulong[] Widened(ObjectAddresses addresses)
    {
        var all = new ulong[addresses.Length];
        addresses.CopyTo(0, all);
        return all;
    }

    private static int FirstDifference<T>(ReadOnlySpan<T> a, ReadOnlySpan<T> b) where T : IEquatable<T>
    {
        int i = 0;
        while (i < a.Length && i < b.Length && a[i].Equals(b[i]))
            i++;
        return i;
    }

    /// <summary>Immediate dominators by iterating idom(v) = intersect of its processed
    /// predecessors' in reverse postorder until nothing changes (the root's is itself, -1 unreached).</summary>
    private static int[] ReferenceDominators(HeapGraph g)
    {
        int n = g.ObjectCount + 1, root = g.SuperRoot;
        var predecessors = g.Predecessors();
        var post = PostorderNumbers(g, out var byPost);
        var idom = new int[n];
        Array.Fill(idom, -1);
        idom[root] = root;
        for (bool changed = true; changed;)
        {
            changed = false;
            for (int i = byPost.Count - 1; i >= 0; i--)
            {
                int v = byPost[i];
                if (v == root)
                    continue;
                int best = -1;
                foreach (int p in predecessors.Of(v))
                {
                    if (idom[p] < 0)
                        continue;
                    best = best < 0 ? p : Intersect(p, best, idom, post);
                }
                if (best != idom[v])
                {
                    idom[v] = best;
                    changed = true;
                }
            }
        }
        return idom;
    }

    private static int Intersect(int a, int b, int[] idom, int[] post)
    {
        while (a != b)
        {
            while (post[a] < post[b])
                a = idom[a];
            while (post[b] < post[a])
                b = idom[b];
        }
        return a;
    }

    /// <summary>Postorder number of every node reached from the super-root (-1 otherwise).</summary>
    private static int[] PostorderNumbers(HeapGraph g, out List<int> byPost)
    {
        int n = g.ObjectCount + 1;
        var post = new int[n];
        Array.Fill(post, -1);
        var seen = new bool[n];
        byPost = new List<int>();
        var stack = new Stack<(int Node, int Edge)>();
        stack.Push((g.SuperRoot, g.Offsets[g.SuperRoot]));
        seen[g.SuperRoot] = true;
        while (stack.Count > 0)
        {
            var (v, e) = stack.Pop();
            if (e == g.Offsets[v + 1])
            {
                post[v] = byPost.Count;
                byPost.Add(v);
                continue;
            }
            stack.Push((v, e + 1));
            int w = g.Targets[e];
            if (!seen[w])
            {
                seen[w] = true;
                stack.Push((w, g.Offsets[w]));
            }
        }
        return post;
    }

    /// <summary>Retained sizes from idom: each node's size added to it and every dominator
    /// above it, nodes taken deepest first.</summary>
    private static long[] ReferenceRetained(HeapGraph g, int[] idom)
    {
        int n = idom.Length, root = g.SuperRoot;
        var depth = new int[n];
        Array.Fill(depth, -1);
        depth[root] = 0;
        var path = new Stack<int>();
        var reached = Enumerable.Range(0, n).Where(v => idom[v] >= 0).ToList();
        foreach (int v in reached)
        {
            for (int x = v; depth[x] < 0; x = idom[x])
                path.Push(x);
            while (path.Count > 0)
            {
                int x = path.Pop();
                depth[x] = depth[idom[x]] + 1;
            }
        }
        var retained = new long[n];
        foreach (int v in reached.OrderByDescending(v => depth[v]))
        {
            if (v != root)
            {
                retained[v] += g.Sizes[v];
                retained[idom[v]] += retained[v];
            }
        }
        return retained;
    }
}
