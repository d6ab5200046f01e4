using System.Text.Json;
using LeakStory;

// Usage: LeakStory.dll STATUS.json   ("leak" on stdin: one more batch held forever)
WriteStatus(args[0], 0);
string line;
while ((line = Console.ReadLine()) != null)
{
    if (line.Trim() != "leak")
        continue;
    SessionCache.Remember(SessionCache.Batch);
    GC.Collect();
    WriteStatus(args[0], SessionCache.Sessions.Count); // @bp leaked
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
