// Protocol:
//   TraceTruth TRUTH.json GO_FILE [ROUNDS]
//       prints "ready", waits until GO_FILE exists, runs one phase (ROUNDS rounds, default
//       30, of the three allocating methods; a gen0 GC every 5th round, a gen2 GC every
//       10th), writes TRUTH.json, then idles until "exit" or the end of stdin. The go file
//       lets a test start the phase inside a recording whichever way the program was
//       started (a launched debuggee's stdin is not the test's).
//   TraceTruth bench SECONDS [GO_FILE]
//       prints "ready", waits for GO_FILE (when given: a recording can start first), then
//       allocates as in a phase for SECONDS and prints "rounds-per-second N" (benchmarks/).
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
            Console.WriteLine($"rounds-per-second {Bench(double.Parse(args[1])):F1}");
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

    private static double Bench(double seconds)
    {
        var clock = Stopwatch.StartNew();
        int rounds = 0;
        var allocator = new Allocator();
        while (clock.Elapsed.TotalSeconds < seconds)
        {
            allocator.Round(rounds++);
        }
        return rounds / clock.Elapsed.TotalSeconds;
    }
}
