// Spins on a named worker thread and writes a counter to the file given as the first
// argument every 50 ms, so a test sees it keeps running after detach.
using System.Threading;

var output = args.Length > 0 ? args[0] : null;
long counter = 0;
var worker = new Thread(() => { while (true) { Interlocked.Increment(ref counter); } }) { Name = "Spinner", IsBackground = true };
worker.Start();
while (true)
{
    if (output is not null) File.WriteAllText(output, Interlocked.Read(ref counter).ToString()); // @bp tick
    Thread.Sleep(50);
}
