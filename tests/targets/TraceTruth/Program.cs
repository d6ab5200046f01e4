// Protocol (stdin/stdout, one line each):
//   TraceTruth TRUTH.json [ROUNDS]   prints "ready", then per line read from stdin:
//     "go"    runs one phase (ROUNDS rounds of the three allocating methods, a gen0 GC every
//             5th round, a gen2 GC every 10th), writes TRUTH.json, prints "done"
//     "exit"  (or end of input) ends the program
//   TraceTruth bench SECONDS          allocates as in a phase for SECONDS and prints
//             "rounds-per-second N" (the benchmark's throughput figure)
using System.Diagnostics;
using System.Text.Json;

namespace TraceTruth;

public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length >= 2 && args[0] == "bench")
        {
            Console.WriteLine($"rounds-per-second {Bench(double.Parse(args[1])):F1}");
            return 0;
        }
        string truthPath = args[0];
        int rounds = args.Length > 1 ? int.Parse(args[1]) : 30;
        Console.WriteLine("ready");
        string line;
        while ((line = Console.ReadLine()) != null && line != "exit")
        {
            if (line != "go") continue;
            File.WriteAllText(truthPath, JsonSerializer.Serialize(Allocator.Phase(rounds)));
            Console.WriteLine("done");
        }
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
