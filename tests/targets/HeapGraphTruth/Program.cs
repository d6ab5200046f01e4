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
// The truth is written only once this thread is blocked in Monitor.Wait (the writer can
// take the lock only then), so its stack, holding `local`, is stable when read live.
var gate = new object();
// The writer allocates its stdin reader and buffer first, so nothing is being allocated
// (a half-made object has no type yet) once the truth file appears.
var writer = new Thread(() =>
{
    var stdin = Console.In;
    var buffer = new char[4096];
    lock (gate)
    {
        File.WriteAllText(args[0] + ".tmp", JsonSerializer.Serialize(truth));
        File.Move(args[0] + ".tmp", args[0]);
    }
    while (stdin.Read(buffer, 0, buffer.Length) > 0) { } // @bp truth_written
    Environment.Exit(0);
}) { IsBackground = true };
lock (gate)
{
    writer.Start();
    Monitor.Wait(gate);
}
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
