using System.Runtime.InteropServices;
using System.Text.Json;

namespace Ailments;

/// <summary>Each mode builds one pathology (or a healthy workload), then writes what it built
/// to the truth file named last on the command line and stays as it is until killed.</summary>
public static class Program
{
    public static readonly List<ThreadTruth> Threads = new();
    public static readonly List<Thread> Started = new();
    public static string TruthPath = "";

    [DllImport("libc", EntryPoint = "gettid")]
    public static extern int GetTid();

    public static int Main(string[] args)
    {
        string mode = args[0];
        TruthPath = args[^1];
        Truth truth = mode switch
        {
            "deadlock-monitor" => Hangs.MonitorDeadlock(),
#if NET9_0_OR_GREATER
            "deadlock-mixed" => Hangs.MixedDeadlock(),
#endif
            "deadlock-semaphore" => Hangs.SemaphoreDeadlock(),
            "convoy" => Hangs.Convoy(),
            "starvation" => Starvation.Build(),
            "async-stuck" => Orphaned.Build(),
            "finalizer" => Finalizers.Build(),
            "leak-static" => Leaks.Static(),
            "leak-event" => Leaks.Event(),
            "leak-timer" => Leaks.Timer(),
            "growth" => Leaks.Growth(),
            "duplicate-strings" => Leaks.DuplicateStrings(),
            "wasted-capacity" => Capacity.Build(),
            "pinning" => Pinning.Build(),
            "crash" => Crash.Build(),
            "gc-pressure" => Pressure.Build(),
            "healthy-batch" => Batch.Build(),
            _ => throw new ArgumentException($"unknown mode {mode}"),
        };
        Write(truth with { Mode = mode, Pid = Environment.ProcessId, RuntimeVersion = Environment.Version.ToString() });
        if (mode == "crash")
            Crash.Die();
        Thread.Sleep(Timeout.Infinite);
        return 0;
    }

    private static void Write(Truth truth)
    {
        lock (Threads)
            truth = truth with { Threads = Threads.ToArray() };
        var options = new JsonSerializerOptions { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };
        File.WriteAllText(TruthPath + ".tmp", JsonSerializer.Serialize(truth, options));
        File.Move(TruthPath + ".tmp", TruthPath, true);
    }

    /// <summary>A named background thread that records its ids before running body.</summary>
    public static Thread Start(string name, ThreadStart body)
    {
        var thread = new Thread(() => { Record(name); body(); }) { Name = name, IsBackground = true };
        thread.Start();
        Started.Add(thread);
        return thread;
    }

    public static void Record(string name)
    {
        lock (Threads)
            Threads.Add(new ThreadTruth(name, Environment.CurrentManagedThreadId, GetTid()));
    }

    /// <summary>Until every started thread has blocked (ten readings in a row: a spinning waiter settles).</summary>
    public static void WaitUntilBlocked(Func<bool> also = null)
    {
        int steady = 0;
        while (steady < 10)
        {
            Thread.Sleep(20);
            bool all = Started.All(t => (t.ThreadState & ThreadState.WaitSleepJoin) != 0);
            lock (Threads)
                all &= Threads.Count >= Started.Count && (also?.Invoke() ?? true);
            steady = all ? steady + 1 : 0;
        }
    }
}

public sealed record ThreadTruth(string Name, int ManagedThreadId, int OsThreadId);

/// <summary>What a mode built: the kind diagnose must name first (null: healthy), and its evidence.</summary>
public sealed record Truth(string Kind, string[] Types, string[] Methods, string Root = null, long Bytes = 0,
    int Count = 0, string Mode = null, int Pid = 0, string RuntimeVersion = null, ThreadTruth[] Threads = null);
