using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

// Usage: HeapWalkBaseline PID DAC_PATH RUNS [stats|graph]
// Attaches without suspending, then walks the heap RUNS times; prints one JSON line per run.
// stats: count and size by type (the same walk as pyinspect's heap stats);
// graph: every object and every reference once, then every root listed: what a plain
// ClrMD program does before it can build any graph.
int pid = int.Parse(args[0]);
string dac = args[1];
int runs = args.Length > 2 ? int.Parse(args[2]) : 1;
bool graph = args.Length > 3 && args[3] == "graph";
using var target = DataTarget.AttachToProcess(pid, suspend: false);
using var runtime = target.ClrVersions[0].CreateRuntime(dac, ignoreMismatch: true);
for (int run = 0; run < runs; run++)
{
    runtime.FlushCachedData();
    var watch = Stopwatch.StartNew();
    var byType = new Dictionary<ClrType, long[]>();
    long objects = 0, references = 0, roots = 0;
    foreach (var obj in runtime.Heap.EnumerateObjects())
    {
        var type = obj.Type;
        if (type is null)
            continue;
        if (!byType.TryGetValue(type, out var slot))
            byType[type] = slot = new long[2];
        slot[0]++;
        slot[1] += (long)obj.Size;
        objects++;
        if (graph)
            foreach (ulong _ in obj.EnumerateReferenceAddresses(carefully: false, considerDependantHandles: false))
                references++;
    }
    double walkSeconds = watch.Elapsed.TotalSeconds;
    if (graph)
        foreach (var _ in runtime.Heap.EnumerateRoots())
            roots++;
    var names = byType.Keys.Select(t => t.Name).Distinct().Count();
    watch.Stop();
    Console.WriteLine($"{{\"objects\": {objects}, \"references\": {references}, \"roots\": {roots}, \"types\": {names}, \"walkSeconds\": {walkSeconds:R}, \"seconds\": {watch.Elapsed.TotalSeconds:R}}}");
}
