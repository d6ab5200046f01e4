using System.Runtime;
using System.Text.Json;
using MemoryTruth;

// Usage: MemoryTruth.dll TRUTH.json          (collections and objects, truth written, then wait,
//                                             echoing each stdin line to TRUTH.json.echo)
//        MemoryTruth.dll big N READY.json    (a List<int> of N items for benchmarks, then wait)
// Console.In is made before anything is measured or announced: made lazily at the first
// ReadLine, its reader, handle and encoding objects would land on the heap between a test's
// dump and its live read of the waiting program.
TextReader stdin = Console.In;
if (args.Length == 3 && args[0] == "big")
{
    Big(int.Parse(args[1]), args[2]);
    return;
}
var large = Bag.NewLarge();
GC.Collect();
if (!GC.TryStartNoGCRegion(64L * 1024 * 1024))
    throw new InvalidOperationException("no GC region refused");
int collections = GC.CollectionCount(0);
var bag = new Bag(large);
var customer = Subjects.NewCustomer();
var self = new SelfRef { Tag = 1 };
self.Self = self;
var chain = Subjects.Chain(12);
var box = new Box { Flag = 1, Content = new Outer { A = 5, Inner = new Point { X = 6, Y = 7, Z = 8 } } };
var ints = bag.Ints;
var truth = new Dictionary<string, object>
{
    ["pid"] = Environment.ProcessId,
    ["collections"] = Collections.Truth(bag),
    ["customer"] = Subjects.CustomerTruth(customer),
    ["self"] = Subjects.SelfTruth(self),
    ["chain"] = Subjects.ChainTruth(chain),
    ["box"] = Subjects.BoxTruth(box),
};
File.WriteAllText(args[0] + ".tmp", JsonSerializer.Serialize(truth));
File.Move(args[0] + ".tmp", args[0]);
if (GC.CollectionCount(0) != collections)
    throw new InvalidOperationException("a GC ran while measuring: the truth is void");
Subjects.Ready(bag, customer, self, chain, box, ints); // @bp ready
// Each line on stdin is echoed beside the truth: a line that runs while a debugger is attached.
while (stdin.ReadLine() is { } line)
    File.WriteAllText(args[0] + ".echo", line); // @bp echo
GC.KeepAlive(bag);
GC.KeepAlive(customer);
GC.KeepAlive(self);
GC.KeepAlive(chain);
GC.KeepAlive(box);

static void Big(int count, string readyPath)
{
    var numbers = new List<int>(count);
    for (int i = 0; i < count; i++)
        numbers.Add((i * 7919) % 1000);
    var truth = CollectionTruth.Sequence(numbers, numbers, "List");
    File.WriteAllText(readyPath + ".tmp", JsonSerializer.Serialize(new { count, pid = Environment.ProcessId, truth }));
    File.Move(readyPath + ".tmp", readyPath);
    Subjects.Ready(numbers, null, null, null, null, numbers); // @bp big_ready
    Console.In.ReadToEnd();
    GC.KeepAlive(numbers);
}
