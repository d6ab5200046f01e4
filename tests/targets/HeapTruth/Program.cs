using System.Runtime;
using System.Text.Json;
using HeapTruth;

// Usage: HeapTruth.dll TRUTH.json          (objects of every shape, truth written, then wait)
//        HeapTruth.dll fill N READY.json   (N small live objects for benchmarks, then wait)
//        HeapTruth.dll app N READY.json    (about N objects shaped like an app's heap, then wait)
if (args.Length == 3 && args[0] == "fill")
{
    Fill(int.Parse(args[1]), args[2]);
    return;
}
if (args.Length == 3 && args[0] == "app")
{
    int customers = AppShape.Grow(long.Parse(args[1]));
    GC.Collect();
    File.WriteAllText(args[2], JsonSerializer.Serialize(new { customers, pid = Environment.ProcessId }));
    Console.In.ReadToEnd();
    GC.KeepAlive(AppShape.Customers);
    return;
}
if (!GC.TryStartNoGCRegion(64L * 1024 * 1024))
    throw new InvalidOperationException("no GC region refused");
var truth = Measure.Build();
File.WriteAllText(args[0] + ".tmp", JsonSerializer.Serialize(truth));
File.Move(args[0] + ".tmp", args[0]);
Console.In.ReadToEnd(); // @bp truth_written
GC.KeepAlive(truth);
Measure.KeepAll();

static void Fill(int count, string readyPath)
{
    var items = new Item[count];
    for (int i = 0; i < count; i++)
        items[i] = new Item { Value = i };
    GC.Collect();
    File.WriteAllText(readyPath, JsonSerializer.Serialize(new { count, pid = Environment.ProcessId }));
    Console.In.ReadToEnd();
    GC.KeepAlive(items);
}
