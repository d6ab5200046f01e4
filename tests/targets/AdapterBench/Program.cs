// Usage: AdapterBench STAMP_FILE HITS
using System.Diagnostics;

namespace AdapterBench;

public static class Program
{
    public static void Main(string[] args)
    {
        string stampFile = args[0];
        int hits = int.Parse(args[1]);
        var wide = new Wide();
        for (int i = 0; i < hits; i++)
            Recurse(50, stampFile, wide);
    }

    private static void Recurse(int depth, string stampFile, Wide wide)
    {
        if (depth > 1)
        {
            Recurse(depth - 1, stampFile, wide);
            return;
        }
        File.WriteAllText(stampFile, Stopwatch.GetTimestamp().ToString());
        wide.F000++; // @bp deep
    }
}
