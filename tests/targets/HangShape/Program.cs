using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace HangShape;

public sealed class LockA { }
public sealed class LockB { }
public sealed class ThinHeld { }
public sealed class OrphanLocked { }
public sealed class QueuedWork : IThreadPoolWorkItem { public void Execute() { } }
public sealed class LocalWork : IThreadPoolWorkItem { public void Execute() { } }

public static class Program
{
    private static readonly LockA A = new();
    private static readonly LockB B = new();
    private static readonly ThinHeld Thin = new();
    private static readonly OrphanLocked Orphan = new();  // only this static reaches it; its owner's frames do not
#if NET9_0_OR_GREATER
    private static readonly Lock NewLock = new();
#endif
    private static readonly SemaphoreSlim Gate = new(0);
    private static readonly ManualResetEventSlim HasA = new(), HasB = new(), HasLock = new();
    private static Exception Held;
    private static Task<int> Chain;
    private static readonly List<ThreadTruth> Threads = new();

    [DllImport("libc", EntryPoint = "gettid")]
    private static extern int GetTid();

    public static int Main(string[] args)
    {
        bool crash = args.Length > 1 && args[0] == "crash";
        string truthPath = args[^1];
        Held = CaughtException();
        Chain = AsyncChain.Outer();
        Start("deadlock-a", DeadlockA);
        Start("deadlock-b", DeadlockB);
        Start("thin-holder", HoldThin);
        Start("orphan-holder", HoldOrphanAfterReturn);
#if NET9_0_OR_GREATER
        Start("lock-owner", HoldNewLock);
        HasLock.Wait();
        Start("lock-waiter", WaitNewLock);
#endif
        Start("semaphore-waiter", () => Gate.Wait());  // @bp semaphore-wait
        Start("sleeper-thread", () => Thread.Sleep(Timeout.Infinite));  // @bp sleep
        WaitUntilAllBlocked();
        var pool = PoolQueue.Fill();
        var truth = new Truth(Environment.ProcessId, Environment.Version.ToString(), Threads.ToArray(),
            Held.GetType().FullName, Held.Message, Held.HResult, Chain.IsCompleted, pool);
        File.WriteAllText(truthPath + ".tmp", JsonSerializer.Serialize(truth, new JsonSerializerOptions { PropertyNamingPolicy = JsonNamingPolicy.CamelCase }));
        File.Move(truthPath + ".tmp", truthPath, true);
        if (crash)
        {
            var crasher = new Thread(Crash) { Name = "crasher" };
            crasher.Start();
            crasher.Join();
        }
        Thread.Sleep(Timeout.Infinite);
        return 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Exception CaughtException()
    {
        try
        {
            throw new InvalidOperationException("held-for-triage");  // @bp throw-held
        }
        catch (Exception exc)
        {
            return exc;
        }
    }

    private static void Crash() =>
        throw new ApplicationException("triage-crash", new FormatException("inner-cause"));  // @bp crash

    private static void Start(string name, ThreadStart body)
    {
        var thread = new Thread(() =>
        {
            lock (Threads)
                Threads.Add(new ThreadTruth(name, Environment.CurrentManagedThreadId, GetTid()));
            body();
        }) { Name = name, IsBackground = true };
        thread.Start();
        Started.Add(thread);
    }

    private static readonly List<Thread> Started = new();

    private static void WaitUntilAllBlocked()
    {
        // A thread blocked in Monitor.Enter, Lock.Enter, SemaphoreSlim.Wait or Sleep reads as
        // WaitSleepJoin; ten readings in a row so a spinning waiter has settled into its wait.
        int steady = 0;
        while (steady < 10)
        {
            Thread.Sleep(20);
            bool all = Started.All(t => (t.ThreadState & ThreadState.WaitSleepJoin) != 0);
            lock (Threads)
                all &= Threads.Count == Started.Count && AsyncChain.InnerReached;
            steady = all ? steady + 1 : 0;
        }
    }

    private static void DeadlockA()
    {
        lock (A)
        {
            HasA.Set();
            HasB.Wait();
            lock (B)  // @bp deadlock-a-waits
                Console.WriteLine("never");
        }
    }

    private static void DeadlockB()
    {
        lock (B)
        {
            HasB.Set();
            HasA.Wait();
            lock (A)  // @bp deadlock-b-waits
                Console.WriteLine("never");
        }
    }

    private static void HoldThin()
    {
        lock (Thin)
            Thread.Sleep(Timeout.Infinite);  // @bp thin-sleeps
    }

    /// <summary>Takes the monitor in a method that returns with it held: no frame of the
    /// owner holds the object afterwards (a lock only a heap walk of headers finds).</summary>
    private static void HoldOrphanAfterReturn()
    {
        EnterOrphan();
        Thread.Sleep(Timeout.Infinite);  // @bp orphan-sleeps
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void EnterOrphan() => Monitor.Enter(Orphan);

#if NET9_0_OR_GREATER
    private static void HoldNewLock()
    {
        lock (NewLock)
        {
            HasLock.Set();
            Thread.Sleep(Timeout.Infinite);  // @bp lock-owner-sleeps
        }
    }

    private static void WaitNewLock()
    {
        using (NewLock.EnterScope())  // @bp lock-waits: an explicit scope, so the statement has a line of its own
            Console.WriteLine("never");
    }
#endif
}

public static class AsyncChain
{
    public static readonly TaskCompletionSource<int> Never = new();
    public static volatile bool InnerReached;

    public static async Task<int> Outer()
    {
        int value = await Middle();  // @bp await-outer
        return value + 1;
    }

    public static async Task<int> Middle()
    {
        await Task.Yield();
        int value = await Inner();  // @bp await-middle
        return value + 1;
    }

    public static async Task<int> Inner()
    {
        InnerReached = true;
        int value = await Never.Task;  // @bp await-inner
        return value + 1;
    }
}

/// <summary>Work the thread pool can never start: the pool is capped at one thread per
/// processor and every pool thread blocks forever, then known items are queued, globally from
/// the main thread and to the last blocker's local queue.</summary>
public static class PoolQueue
{
    public const int Global = 3, Tasks = 2, Local = 2;
    private static readonly ManualResetEventSlim Never = new();
    private static int _blocked;

    public static PoolTruth Fill()
    {
        int threads = Environment.ProcessorCount;
        ThreadPool.GetMaxThreads(out _, out int io);
        if (!ThreadPool.SetMaxThreads(threads, io))
            throw new InvalidOperationException($"cannot cap the thread pool at {threads}");
        using var allBlocked = new CountdownEvent(threads);
        for (int i = 0; i < threads; i++)
            ThreadPool.UnsafeQueueUserWorkItem(_ => Block(threads, allBlocked), null);
        allBlocked.Wait();
        for (int i = 0; i < Global; i++)
            ThreadPool.UnsafeQueueUserWorkItem(new QueuedWork(), preferLocal: false);
        for (int i = 0; i < Tasks; i++)
            Task.Run(QueuedTask);
        return new PoolTruth(threads, Global, Tasks, Local);
    }

    private static void Block(int threads, CountdownEvent allBlocked)
    {
        if (Interlocked.Increment(ref _blocked) == threads)  // every other pool thread is taken: nobody steals these
            for (int i = 0; i < Local; i++)
                ThreadPool.UnsafeQueueUserWorkItem(new LocalWork(), preferLocal: true);
        allBlocked.Signal();
        Never.Wait();
    }

    public static void QueuedTask() { }
}

public sealed record PoolTruth(int PoolThreads, int QueuedWork, int QueuedTasks, int LocalWork);

public sealed record ThreadTruth(string Name, int ManagedThreadId, int OsThreadId);

public sealed record Truth(int Pid, string RuntimeVersion, ThreadTruth[] Threads, string HeldExceptionType,
    string HeldExceptionMessage, int HeldExceptionHResult, bool ChainCompleted, PoolTruth Pool);
