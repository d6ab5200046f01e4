namespace Ailments;

/// <summary>A finalizer that never returns (it waits for an event nobody sets), and the
/// finalizable objects queued behind it.</summary>
public sealed class Stuck
{
    public static readonly ManualResetEventSlim Never = new();
    public static volatile bool Entered;

    ~Stuck()
    {
        Program.Record("finalizer");
        Entered = true;
        Never.Wait();  // @bp finalizer-blocks
    }
}

public sealed class Pending
{
    public static int Finalized;
    private readonly byte[] _buffer = new byte[64];

    ~Pending() => Interlocked.Increment(ref Finalized);
}

public static class Finalizers
{
    public const int Queued = 2000;

    public static Truth Build()
    {
        MakeStuck();
        while (!Stuck.Entered)
        {
            GC.Collect();
            Thread.Sleep(20);
        }
        MakePending();
        GC.Collect();
        Thread.Sleep(200);
        return new Truth("finalizer-blocked", ["Ailments.Pending"], ["Ailments.Stuck.Finalize"], Count: Queued);
    }

    private static void MakeStuck() => _ = new Stuck();

    private static void MakePending()
    {
        for (int i = 0; i < Queued; i++)
            _ = new Pending();
    }
}
