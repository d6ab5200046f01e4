using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// A heap graph's references turned from addresses into object indices after the walk, in the
/// walk's own arrays (<see cref="HeapGraphBuilder"/>), and the dependent handles that become
/// edges. Stops at its next <see cref="Checkpoint"/> when the build is cancelled.
/// </summary>
internal static class EdgeResolution
{
    /// <summary>References as object indices in CSR form over n + 1 nodes, the last being
    /// the super-root whose edges go to every distinct root object. A dependent handle
    /// (ConditionalWeakTable) is an edge from its key to its value, whatever the key's type.
    /// Everything happens in the walk's own arrays: addresses are resolved to indices in
    /// place (<see cref="ResolveInPlace"/>), shifted past the dependent edges, and the
    /// compaction that follows (dropping unresolved ones, inserting dependent edges) turns
    /// the per-object reference counts into offsets where they stand.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static (MappedArray<int> Offsets, MappedArray<int> Targets, long Unresolved) ResolveEdges(
        ObjectAddresses addresses, MappedArray<int> edgeCounts, MappedArray<ulong> edges, AddressIndex index,
        List<GraphRoot> roots, (int Source, int Target)[] dependents, CancellationToken cancel)
    {
        int n = addresses.Count;
        var distinctRoots = roots.Select(r => r.Object).Distinct().ToArray();
        int edgeCount = edges.Count;
        ResolveInPlace(addresses, edges, index, cancel);
        var targets = edges.Reinterpret<int>();
        targets.Resize(Math.Max(targets.Count, (long)edgeCount + dependents.Length + distinctRoots.Length));
        var t = targets.Span;
        t[..edgeCount].CopyTo(t[dependents.Length..]);
        var offsets = edgeCounts;
        offsets.Resize((long)n + 2);
        var o = offsets.Span;
        // written never passes read: it counts the references read so far (less the
        // unresolved) plus the dependent edges inserted so far, at most dependents.Length.
        int written = 0, read = dependents.Length, nextDependent = 0;
        long unresolved = 0;
        for (int v = 0; v < n; v++)
        {
            Checkpoint.At(v, cancel);
            int count = o[v];
            o[v] = written;
            for (int left = count; left > 0; left--)
            {
                int w = t[read++];
                if (w < 0)
                    unresolved++;
                else
                    t[written++] = w;
            }
            for (; nextDependent < dependents.Length && dependents[nextDependent].Source == v; nextDependent++)
                t[written++] = dependents[nextDependent].Target;
        }
        o[n] = written;
        foreach (int r in distinctRoots)
            t[written++] = r;
        o[n + 1] = written;
        targets.Resize(written);
        targets.Trim();
        return (offsets, targets, unresolved);
    }

    /// <summary>Each reference's address becomes its object index (or -1), written as an int
    /// over the same memory: element e's int lies at byte 4e, below its address at byte 8e.
    /// The first block is done in order; each later block [s, 2s) writes bytes [4s, 8s), all
    /// below the addresses it reads ([8s, 16s)), so its parts run on every core. A reference
    /// to the object right after the previous one's target (arrays filled in order) skips
    /// the search.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static unsafe void ResolveInPlace(ObjectAddresses addresses, MappedArray<ulong> references, AddressIndex index,
                                              CancellationToken cancel)
    {
        nint edgesAt = (nint)references.Pointer;
        int total = references.Count;
        void Resolve(int from, int to)
        {
            ulong* edges = (ulong*)edgesAt;
            int* into = (int*)edgesAt;
            int hint = -1;
            for (int i = from; i < to; i++)
            {
                if (Checkpoint.Stopped(i, cancel))
                    return;
                ulong address = edges[i];
                int w = addresses.Is(hint + 1, address) ? hint + 1 : index.Find(address);
                hint = w;
                into[i] = w;
            }
        }
        int start = Math.Min(total, 1 << 16);
        Resolve(0, start);
        cancel.ThrowIfCancellationRequested();
        while (start < total)
        {
            int end = (int)Math.Min(total, 2L * start);
            int parts = Environment.ProcessorCount * 4, from = start, length = end - start;
            Parallel.For(0, parts, p => Resolve(from + (int)((long)length * p / parts), from + (int)((long)length * (p + 1) / parts)));
            cancel.ThrowIfCancellationRequested();
            start = end;
        }
    }

    /// <summary>Dependent handles as (key index, value index), ordered by key.</summary>
    public static (int Source, int Target)[] DependentEdges(ClrRuntime runtime, AddressIndex index)
    {
        var edges = new List<(int Source, int Target)>();
        foreach (var handle in runtime.EnumerateHandles())
        {
            if (handle.HandleKind != ClrHandleKind.Dependent)
                continue;
            int source = index.Find(handle.Object.Address), target = index.Find(handle.Dependent.Address);
            if (source >= 0 && target >= 0)
                edges.Add((source, target));
        }
        edges.Sort();
        return edges.ToArray();
    }
}
