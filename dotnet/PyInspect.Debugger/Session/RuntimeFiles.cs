// The files a .NET runtime keeps in its temp folder for debuggers and diagnostics tools:
// dotnet-diagnostic-<pid>-<key>-socket and clr-debug-pipe-<pid>-<key>-in/-out, the key being
// the process's start time (field 22 of /proc/<pid>/stat). A runtime removes them as it exits;
// one killed cannot, so the debugger that ended it removes them once it is gone.
namespace PyInspect.Debugger.Session;

public static class RuntimeFiles
{
    /// <summary>The start time of a running process (its files' key), null when it is gone.</summary>
    public static string? StartKey(int processId)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{processId}/stat");
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return fields.Length > 19 ? fields[19] : null;
        }
        catch (IOException) { return null; }
        catch (UnauthorizedAccessException) { return null; }
    }

    /// <summary>Remove the files of the process that had this pid and start key (it has exited).</summary>
    public static void RemoveOf(int processId, string startKey)
    {
        string folder = Environment.GetEnvironmentVariable("TMPDIR") is { Length: > 0 } tmp ? tmp : "/tmp";
        foreach (string name in new[] { $"dotnet-diagnostic-{processId}-{startKey}-socket",
                                        $"clr-debug-pipe-{processId}-{startKey}-in",
                                        $"clr-debug-pipe-{processId}-{startKey}-out" })
        {
            try { File.Delete(Path.Combine(folder, name)); }
            catch (IOException) { }
            catch (UnauthorizedAccessException) { }
        }
    }
}
