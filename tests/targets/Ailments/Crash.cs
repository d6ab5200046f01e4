namespace Ailments;

/// <summary>A crash: an unhandled exception with an inner one, thrown on thread "crasher".</summary>
public static class Crash
{
    private static readonly ManualResetEventSlim Go = new();
    private static Thread _crasher;

    /// <summary>The crasher starts and records its ids first: the truth names it before it throws.</summary>
    public static Truth Build()
    {
        _crasher = Program.Start("crasher", () => { Go.Wait(); Throw(); });
        Program.WaitUntilBlocked();
        return new Truth("crash", ["System.ApplicationException", "System.FormatException"], ["Ailments.Crash.Throw"]);
    }

    public static void Die()
    {
        Go.Set();
        _crasher.Join();
    }

    private static void Throw() =>
        throw new ApplicationException("ailments-crash", new FormatException("inner-cause"));  // @bp crash
}

/// <summary>GC pressure: a loop that allocates large arrays (the large object heap) and calls
/// GC.Collect every few of them, as code that "cleans up" after each batch does.</summary>
public static class Pressure
{
    public static long Collections;

    public static Truth Build()
    {
        Program.Start("churner", Churn);
        while (Interlocked.Read(ref Collections) < 5)
            Thread.Sleep(10);
        return new Truth("gc-pressure", ["System.Byte[]"], ["Ailments.Pressure.Churn"]);
    }

    private static void Churn()
    {
        var keep = new List<byte[]>();
        while (true)
        {
            keep.Add(new byte[200_000]);  // @bp churn-allocates
            if (keep.Count == 4)
            {
                keep.Clear();
                GC.Collect();  // @bp churn-collects
                Interlocked.Increment(ref Collections);
                Thread.Sleep(20);
            }
        }
    }
}

/// <summary>Healthy: a batch job that streams records, allocating a lot and freeing it (each
/// chunk of 1,000 rows is dropped once summed), with pool threads computing each chunk and an
/// async loop awaiting timers.</summary>
public static class Batch
{
    public static long Rounds, Total;

    public static Truth Build()
    {
        Program.Start("batch", Run);
        _ = Tick();
        while (Interlocked.Read(ref Rounds) < 3)
            Thread.Sleep(20);
        return new Truth(null, [], []);
    }

    private static void Run()
    {
        while (true)
        {
            for (int chunk = 0; chunk < 20; chunk++)
            {
                var rows = new List<int[]>(1000);
                for (int i = 0; i < 1000; i++)
                    rows.Add(new int[256]);
                Parallel.For(0, rows.Count, i => Interlocked.Add(ref Total, rows[i].Length + i));
            }
            Interlocked.Increment(ref Rounds);
            Thread.Sleep(10);
        }
    }

    private static async Task Tick()
    {
        while (true)
            await Task.Delay(15);
    }
}
