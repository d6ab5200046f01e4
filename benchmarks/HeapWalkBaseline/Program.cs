using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

// Usage: HeapWalkBaseline PID DAC_PATH RUNS
// Attaches without suspending, then walks the heap RUNS times grouping count and size
// by type (the same walk as pyinspect's heap stats); prints one JSON line per run.
int pid = int.Parse(args[0]);
string dac = args[1];
int runs = args.Length > 2 ? int.Parse(args[2]) : 1;
using var target = DataTarget.AttachToProcess(pid, suspend: false);
using var runtime = target.ClrVersions[0].CreateRuntime(dac, ignoreMismatch: true);
for (int run = 0; run < runs; run++)
{
    runtime.FlushCachedData();
    var watch = Stopwatch.StartNew();
    var byType = new Dictionary<ClrType, long[]>();
    long objects = 0;
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
    }
    var names = byType.Keys.Select(t => t.Name).Distinct().Count();
    watch.Stop();
    Console.WriteLine($"{{\"objects\": {objects}, \"types\": {names}, \"seconds\": {watch.Elapsed.TotalSeconds:R}}}");
}
