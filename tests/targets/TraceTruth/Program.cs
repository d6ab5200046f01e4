// Protocol:
//   TraceTruth TRUTH.json GO_FILE [ROUNDS]
//       prints "ready", waits until GO_FILE exists, runs one phase (ROUNDS rounds, default
//       30, of the three allocating methods; a gen0 GC every 5th round, a gen2 GC every
//       10th), writes TRUTH.json, then idles until "exit" or the end of stdin. The go file
//       lets a test start the phase inside a recording whichever way the program was
//       started (a launched debuggee's stdin is not the test's).
//   TraceTruth bench SECONDS [GO_FILE [app]]
//       prints "ready", waits for GO_FILE (when given: a recording can start first), then
//       allocates as in a phase for SECONDS and prints "rounds-per-second N MB-per-second M"
//       (benchmarks/). With "app", each round also computes (as a service does between its
//       allocations) and induces no GC: about a tenth of the extreme loop's allocation rate.
using System.Diagnostics;
using System.Text.Json;

namespace TraceTruth;

public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length >= 2 && args[0] == "bench")
        {
            Console.WriteLine("ready");
            while (args.Length > 2 && !File.Exists(args[2])) Thread.Sleep(20);
            bool app = args.Length > 3 && args[3] == "app";
            long allocated = GC.GetTotalAllocatedBytes(precise: true);
            var clock = Stopwatch.StartNew();
            double rate = Bench(double.Parse(args[1]), app);
            double megabytes = (GC.GetTotalAllocatedBytes(precise: true) - allocated) / 1e6 / clock.Elapsed.TotalSeconds;
            Console.WriteLine($"rounds-per-second {rate:F1} MB-per-second {megabytes:F1}");
            return 0;
        }
        string truthPath = args[0], goFile = args[1];
        int rounds = args.Length > 2 ? int.Parse(args[2]) : 30;
        Console.WriteLine("ready");
        while (!File.Exists(goFile)) Thread.Sleep(20);
        var truth = JsonSerializer.Serialize(Allocator.Phase(rounds));
        File.WriteAllText(truthPath + ".tmp", truth);
        File.Move(truthPath + ".tmp", truthPath);
        Console.WriteLine("done");
        string line;
        while ((line = Console.ReadLine()) != null && line != "exit") { }
        return 0;
    }

    private static double Bench(double seconds, bool app)
    {
        var clock = Stopwatch.StartNew();
        int rounds = 0;
        var allocator = new Allocator();
        while (clock.Elapsed.TotalSeconds < seconds)
        {
            if (app)
            {
                allocator.Allocate();
                Compute();
                rounds++;
            }
            else
            {
                allocator.Round(rounds++);
            }
        }
        return rounds / clock.Elapsed.TotalSeconds;
    }

    public static volatile int Result;

    /// <summary>Work without allocations between a round's allocations (a service's request handling).</summary>
    private static void Compute()
    {
        uint hash = 2166136261;
        for (int i = 0; i < 5_000_000; i++) hash = (hash ^ (uint)i) * 16777619;
        Result = (int)hash;
    }
}
