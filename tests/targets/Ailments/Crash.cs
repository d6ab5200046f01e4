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

/// <summary>Healthy: a batch job that allocates a lot in rounds and frees each round, with
/// pool threads computing, an async loop awaiting timers, and brief lock contention.</summary>
public static class Batch
{
    private static readonly object Tally = new();
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
            var rows = new List<int[]>();
            for (int i = 0; i < 20_000; i++)
                rows.Add(new int[256]);
            Parallel.For(0, rows.Count, i => { int s = rows[i].Length + i; lock (Tally) Total += s; });
            rows = null;
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
