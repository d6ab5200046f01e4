namespace LeakStory;

/// <summary>A cache that is only ever added to: the leak.</summary>
public static class SessionCache
{
    public const int Batch = 10_000;

    public static readonly List<LeakedSession> Sessions = new();

    /// <summary>One long value held twice (two string objects): a duplicate longer than an answer shows.</summary>
    public static readonly string[] Banners = { new string('=', 1000), new string('=', 1000) };

    public static void Remember(int count)
    {
        for (int i = 0; i < count; i++)
            Sessions.Add(new LeakedSession(Sessions.Count));
        Console.Out.Flush(); // @bp leaked
    }
}

/// <summary>One remembered session: ten longs, 96 bytes per object on x64.</summary>
public sealed class LeakedSession(long id)
{
    public long Id = id;
    public long StartedTicks = DateTime.UtcNow.Ticks;
    public long A, B, C, D, E, F, G, H;
}
