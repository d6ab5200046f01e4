namespace Ailments;

public sealed class Subscriber
{
    private readonly byte[] _state = new byte[Leaks.Chunk];
    public void OnChanged(object sender, EventArgs e) => _state[0]++;
}

public sealed class Entry
{
    public readonly byte[] Payload = new byte[1024];
    public readonly long Stamp = Environment.TickCount64;
}

public sealed class Report
{
    public readonly List<byte[]> Pages = new();
}

/// <summary>Memory held for ever: a static cache, a static event's subscribers, a timer's
/// state, and many copies of a few strings.</summary>
public static class Leaks
{
    public const int Chunk = 4096, Entries = 10_000;
    public static readonly Dictionary<int, byte[]> Cache = new();
    public static event EventHandler Changed;
    private static System.Threading.Timer Ticker;
    public static readonly List<string> Names = new();
    public static readonly List<Entry> History = new();
    public const int GrowthLimit = 200_000;

    public static Truth Static()
    {
        for (int i = 0; i < Entries; i++)
            Cache[i] = new byte[Chunk];
        return new Truth("retained-memory", ["System.Collections.Generic.Dictionary<System.Int32, System.Byte[]>"],
            [], Root: "Ailments.Leaks.Cache", Bytes: (long)Entries * Chunk);
    }

    public static Truth Event()
    {
        for (int i = 0; i < Entries; i++)
            Changed += new Subscriber().OnChanged;
        return new Truth("retained-memory", ["System.EventHandler"], [], Root: "Ailments.Leaks.Changed",
            Bytes: (long)Entries * Chunk);
    }

    public static Truth Timer()
    {
        var report = new Report();
        for (int i = 0; i < Entries; i++)
            report.Pages.Add(new byte[Chunk]);
        Ticker = new System.Threading.Timer(Tick, report, TimeSpan.FromHours(1), TimeSpan.FromHours(1));
        return new Truth("retained-memory", ["Ailments.Report", "System.Threading.TimerQueueTimer"], [],
            Bytes: (long)Entries * Chunk);
    }

    private static void Tick(object state) => ((Report)state).Pages.Add(new byte[Chunk]);

    /// <summary>A history that only grows: about 5 MB a second, 50 entries every 10 ms (up to a limit).</summary>
    public static Truth Growth()
    {
        Program.Start("grower", Grow);
        while (History.Count < 500)
            Thread.Sleep(10);
        return new Truth("memory-growth", ["Ailments.Entry", "System.Byte[]"], ["Ailments.Leaks.Grow"],
            Root: "Ailments.Leaks.History", Bytes: 50 * (1024 + 24 + 40) * 100, Count: GrowthLimit);
    }

    private static void Grow()
    {
        while (History.Count < GrowthLimit)
        {
            for (int i = 0; i < 50; i++)
                History.Add(new Entry());  // @bp grow
            Thread.Sleep(10);
        }
    }

    public const int Copies = 100_000, Distinct = 10, Length = 100;

    public static Truth DuplicateStrings()
    {
        for (int i = 0; i < Copies; i++)
            Names.Add(new string((char)('a' + i % Distinct), Length));
        long wasted = (long)(Copies - Distinct) * (22 + 2 * Length);  // every copy past the first of each value
        return new Truth("duplicate-strings", ["System.String"], [], Root: "Ailments.Leaks.Names", Bytes: wasted,
            Count: Copies);
    }
}
