using System.Text.Json;
using LeakStory;

// Usage: LeakStory.dll STATUS.json [--auto]   ("leak" on stdin: one more batch held forever;
// --auto: twenty batches first, one after another, for a debugger stopping in Remember)
GC.KeepAlive(SessionCache.Banners); // the cache exists (and holds its banners) from the start
WriteStatus(args[0], 0);
if (args.Length > 1 && args[1] == "--auto")
{
    for (int i = 0; i < 20; i++)
        SessionCache.Remember(SessionCache.Batch);
    WriteStatus(args[0], SessionCache.Sessions.Count);
}
string line;
while ((line = Console.ReadLine()) != null)
{
    if (line.Trim() != "leak")
        continue;
    SessionCache.Remember(SessionCache.Batch);
    GC.Collect();
    WriteStatus(args[0], SessionCache.Sessions.Count);
}

static void WriteStatus(string path, int held)
{
    var status = new Dictionary<string, object>
    {
        ["held"] = held, ["batch"] = SessionCache.Batch,
        ["type"] = typeof(LeakedSession).FullName!, ["holder"] = "LeakStory.SessionCache.Sessions",
    };
    File.WriteAllText(path + ".tmp", JsonSerializer.Serialize(status));
    File.Move(path + ".tmp", path, overwrite: true);
}
