using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;
using HeapGraphTruth;

// Usage: HeapGraphTruth.dll TRUTH.json   (graphs built, truth written, then wait on stdin)
var doomedRefs = QueueDoomed();
if (!GC.TryStartNoGCRegion(32L * 1024 * 1024))
    throw new InvalidOperationException("no GC region refused");
var truth = new Dictionary<string, object>();
var keep = Graphs.Build(truth);
truth["finalizer"] = Graphs.QueuedDoomed(doomedRefs);
var local = new Node(600);
truth["stackOnly"] = Graphs.One(local);
var started = new ManualResetEventSlim();
var holder = new Thread(() => Graphs.HoldOnStack(started)) { IsBackground = true, Name = "holder" };
holder.Start();
started.Wait();
truth["threadLocal"] = Graphs.ThreadLocalTruth;
File.WriteAllText(args[0] + ".tmp", JsonSerializer.Serialize(truth));
File.Move(args[0] + ".tmp", args[0]);
Console.In.ReadToEnd(); // @bp truth_written
GC.KeepAlive(local);
GC.KeepAlive(keep);

// Two finalizable objects dropped and collected: one blocks the finalizer thread, the
// other stays queued. Long weak references find them again (they do not root them).
[MethodImpl(MethodImplOptions.NoInlining)]
static WeakReference[] QueueDoomed()
{
    var refs = Graphs.MakeDoomed();
    GC.Collect();
    if (!Doomed.FinalizerBlocked.Wait(TimeSpan.FromSeconds(30)))
        throw new InvalidOperationException("the finalizer thread never ran a Doomed finalizer");
    return refs;
}
