using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>The benchmark's baseline for retention paths: ClrMD's own GCRoot finding the
/// first root path to one object, timed (benchmarks/heap_graph.py prints the ratio).</summary>
public static class GcRootTiming
{
    /// <summary>Seconds until GCRoot yields its first path to address (-1 when it finds none).</summary>
    public static double FirstPathSeconds(HeapTarget target, ulong address)
    {
        var watch = Stopwatch.StartNew();
        var gcroot = new GCRoot(target.Runtime.Heap, new[] { address });
        foreach (var _ in gcroot.EnumerateRootPaths())
            return watch.Elapsed.TotalSeconds;
        return -1;
    }
}
