using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using HeapTruth;

namespace HeapGraphTruth;

/// <summary>Builds graphs whose dominators and retained sizes are known by construction
/// and records each object's address, size, retained size, immediate dominator and root.</summary>
public static class Graphs
{
    public static Dictionary<string, object> ThreadLocalTruth;

    public static object Build(Dictionary<string, object> truth)
    {
        BuildTree(truth);
        BuildDiamond(truth);
        BuildCycle(truth);
        Roots.OnlyStatic = new Node(400);
        truth["onlyStatic"] = One(Roots.OnlyStatic);
        BuildArray(truth);
        var strong = new Node(500);
        var pinned = new byte[16];
        var handles = new[] { GCHandle.Alloc(strong, GCHandleType.Normal), GCHandle.Alloc(pinned, GCHandleType.Pinned) };
        truth["strongHandle"] = One(strong);
        truth["pinnedHandle"] = One(pinned);
        truth["garbage"] = Garbage();
        return handles;
    }

    private static void BuildTree(Dictionary<string, object> truth)
    {
        var d = new Node(4);
        var b = new Node(2) { Left = d };
        var c = new Node(3);
        var a = new Node(1) { Left = b, Right = c };
        Roots.Tree = a;
        truth["tree"] = new Dictionary<string, object>
        {
            ["a"] = Entry(a, Sum(a, b, c, d), null),
            ["b"] = Entry(b, Sum(b, d), a),
            ["c"] = Entry(c, Sum(c), a),
            ["d"] = Entry(d, Sum(d), b),
        };
    }

    private static void BuildDiamond(Dictionary<string, object> truth)
    {
        var leaf = new Node(14);
        var shared = new Node(13) { Left = leaf };
        var left = new Node(11) { Left = shared };
        var right = new Node(12) { Left = shared };
        var top = new Node(10) { Left = left, Right = right };
        Roots.Diamond = top;
        truth["diamond"] = new Dictionary<string, object>
        {
            ["top"] = Entry(top, Sum(top, left, right, shared, leaf), null),
            ["left"] = Entry(left, Sum(left), top),
            ["right"] = Entry(right, Sum(right), top),
            ["shared"] = Entry(shared, Sum(shared, leaf), top),
            ["leaf"] = Entry(leaf, Sum(leaf), shared),
        };
    }

    private static void BuildCycle(Dictionary<string, object> truth)
    {
        var c3 = new Node(23);
        var c2 = new Node(22) { Left = c3 };
        var c1 = new Node(21) { Left = c2 };
        c3.Left = c1;
        Roots.Cycle = c1;
        truth["cycle"] = new Dictionary<string, object>
        {
            ["c1"] = Entry(c1, Sum(c1, c2, c3), null),
            ["c2"] = Entry(c2, Sum(c2, c3), c1),
            ["c3"] = Entry(c3, Sum(c3), c2),
        };
    }

    private static void BuildArray(Dictionary<string, object> truth)
    {
        var items = new object[] { new Node(30), new Node(31), new Node(32) };
        Roots.Array = items;
        truth["array"] = new Dictionary<string, object>
        {
            ["array"] = Entry(items, Sum(items, items[0], items[1], items[2]), null),
            ["third"] = Entry(items[2], Sum(items[2]), items),
        };
    }

    /// <summary>A two-node cycle nobody references: dead, still on the heap (no GC runs).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Dictionary<string, object> Garbage()
    {
        var g1 = new Node(900);
        var g2 = new Node(901) { Left = g1 };
        g1.Left = g2;
        return One(g1);
    }

    public static WeakReference[] MakeDoomed() =>
        new[] { new WeakReference(new Doomed(1), trackResurrection: true), new WeakReference(new Doomed(2), trackResurrection: true) };

    /// <summary>The Doomed object still waiting in the finalizer queue (not the one blocking it).</summary>
    public static Dictionary<string, object> QueuedDoomed(WeakReference[] refs)
    {
        foreach (var weak in refs)
            if (weak.Target is Doomed doomed && doomed.Id != Doomed.BlockedId)
                return One(doomed);
        throw new InvalidOperationException("no Doomed object left in the finalizer queue");
    }

    /// <summary>Runs on its own thread: a node held only by this frame's local.</summary>
    public static void HoldOnStack(ManualResetEventSlim started)
    {
        var mine = new Node(700);
        ThreadLocalTruth = One(mine);
        ThreadLocalTruth["managedThreadId"] = Environment.CurrentManagedThreadId;
        ThreadLocalTruth["threadName"] = Thread.CurrentThread.Name;
        started.Set();
        Thread.Sleep(Timeout.Infinite);
        GC.KeepAlive(mine);
    }

    public static Dictionary<string, object> One(object obj) => Entry(obj, Truth.SizeOf(obj), null);

    private static Dictionary<string, object> Entry(object obj, long retained, object dominator) => new()
    {
        ["address"] = Hex(obj),
        ["type"] = obj.GetType().FullName,
        ["size"] = Truth.SizeOf(obj),
        ["retained"] = retained,
        ["dominator"] = dominator is null ? "root" : Hex(dominator),
    };

    private static long Sum(params object[] objects) => objects.Sum(Truth.SizeOf);

    private static string Hex(object obj) => "0x" + Truth.AddressOf(obj).ToString("X16");
}
