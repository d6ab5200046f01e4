namespace Ailments;

/// <summary>Thread-pool starvation by sync-over-async: the pool is capped at one thread per
/// processor, and every pool thread blocks on an async method's result whose continuation
/// needs a pool thread to run; the continuations queue behind them for ever.</summary>
public static class Starvation
{
    private static int _entered;

    public static Truth Build()
    {
        int threads = Environment.ProcessorCount;
        ThreadPool.GetMaxThreads(out _, out int io);
        if (!ThreadPool.SetMinThreads(1, 1) || !ThreadPool.SetMaxThreads(threads, io))
            throw new InvalidOperationException($"cannot cap the thread pool at {threads}");
        for (int i = 0; i < threads; i++)
        {
            int style = i;
            ThreadPool.UnsafeQueueUserWorkItem(_ => Handle(style), null);
        }
        while (Volatile.Read(ref _entered) < threads)
            Thread.Sleep(10);
        Thread.Sleep(300);  // the delays have fired: their continuations are queued
        return new Truth("thread-pool-starvation", [], ["Ailments.Starvation.Handle"], Count: threads);
    }

    private static void Handle(int style)
    {
        Program.Record($"pool-{style}");
        Interlocked.Increment(ref _entered);
        int value;
        if (style % 2 == 0)
            value = FetchAsync().Result;  // @bp starve-result
        else
            value = FetchAsync().GetAwaiter().GetResult();  // @bp starve-getresult
        Console.WriteLine(value);
    }

    private static async Task<int> FetchAsync()
    {
        await Task.Delay(50);
        return 42;
    }
}

/// <summary>An async chain awaiting a TaskCompletionSource whose source nobody keeps: nothing
/// can ever complete it. A static keeps the outer task (a caller would await it).</summary>
public static class Orphaned
{
    public static Task<int> Pending;
    public static volatile bool InnerReached;

    public static Truth Build()
    {
        Pending = Outer();
        while (!InnerReached)
            Thread.Sleep(10);
        Thread.Sleep(100);
        GC.Collect();
        return new Truth("async-never-completes", ["System.Threading.Tasks.Task<System.Int32>"],
            ["Ailments.Orphaned.Inner", "Ailments.Orphaned.Middle", "Ailments.Orphaned.Outer"]);
    }

    public static async Task<int> Outer() => await Middle() + 1;  // @bp orphan-outer

    public static async Task<int> Middle()
    {
        await Task.Yield();
        return await Inner() + 1;  // @bp orphan-middle
    }

    public static async Task<int> Inner()
    {
        var source = new TaskCompletionSource<int>();  // dropped: only its task is awaited
        InnerReached = true;
        return await source.Task;  // @bp orphan-inner
    }
}
