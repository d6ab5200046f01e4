namespace HeapGraphTruth;

/// <summary>A graph node with two named references and an id.</summary>
public sealed class Node
{
    public Node(int id) { Id = id; }
    public int Id;
    public object Left;
    public object Right;
}

/// <summary>A finalizable object; the first one finalized blocks the finalizer thread
/// forever, so the others stay in the finalizer queue (ready for finalization).</summary>
public sealed class Doomed
{
    public static readonly ManualResetEventSlim FinalizerBlocked = new();
    public static int BlockedId = -1;
    public int Id;
    public Doomed(int id) { Id = id; }
    ~Doomed()
    {
        BlockedId = Id;
        FinalizerBlocked.Set();
        Thread.Sleep(Timeout.Infinite);
    }
}

/// <summary>Statics that hold the graphs.</summary>
public static class Roots
{
    public static Node Tree;
    public static Node Diamond;
    public static Node Cycle;
    public static Node OnlyStatic;
    public static object[] Array;
}
