// Usage: ConditionBench RESULT_FILE ITERATIONS
// Runs one hot line ITERATIONS times over 100 orders and writes the loop's own wall time
// (Stopwatch, milliseconds) and the sum it computed, so a benchmark can divide by the hits.
using System.Diagnostics;
using System.Globalization;

namespace ConditionBench;

public sealed class Order(int id, decimal total, string name)
{
    public int Id = id;
    public decimal Total = total;
    public string Name = name;

    /// <summary>A getter a condition calls: computed from fields, no side effect.</summary>
    public bool IsBig => Total > 1000m;
}

public static class Program
{
    public static void Main(string[] args)
    {
        string resultFile = args[0];
        int iterations = int.Parse(args[1], CultureInfo.InvariantCulture);
        var orders = Enumerable.Range(0, 100).Select(i => new Order(i, i * 1.5m, "order" + i)).ToArray();
        long sum = 0;
        var watch = Stopwatch.StartNew();
        for (int i = 0; i < iterations; i++)
        {
            Order o = orders[i % orders.Length];
            sum += o.Id; // @bp hot
        }
        watch.Stop();
        File.WriteAllText(resultFile, string.Create(CultureInfo.InvariantCulture, $"{watch.Elapsed.TotalMilliseconds} {sum}"));
    }
}
