// How a target process sees the world (the adapter's mirror of pyinspect/targets/process_view.py):
// its pid inside its own pid namespace (NSpid: what its runtime names its debugger pipes by,
// and what its DBI must be given), its root (/proc/PID/root when it has another mount
// namespace: its runtime folder, modules and PDBs exist at its own paths only through it),
// and whether the DBI's transport must be opened from inside its mount namespace.
namespace PyInspect.Debugger.Engine;

/// <summary>One process as the adapter reaches it.</summary>
public sealed record TargetView(int ProcessId, int NamespacePid, string Root, bool OtherMountNamespace, string TempFolder)
{
    private const int MaxLinks = 40;
    private readonly System.Collections.Concurrent.ConcurrentDictionary<string, string> _reached = new(StringComparer.Ordinal);

    /// <summary>The view of the process being debugged (the adapter debugs one at a time):
    /// module paths ICorDebug gives are in the target's view and reached through it.</summary>
    public static TargetView? Current { get; set; }

    public static TargetView Of(int processId)
    {
        string status;
        try { status = File.ReadAllText($"/proc/{processId}/status"); }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException)
        {
            throw new EngineException($"process {processId} not found or not readable: {exc.Message}");
        }
        int namespacePid = processId;
        foreach (string line in status.Split('\n'))
        {
            if (!line.StartsWith("NSpid:", StringComparison.Ordinal)) continue;
            string[] pids = line[6..].Split((char[])['\t', ' '], StringSplitOptions.RemoveEmptyEntries);
            if (pids.Length > 0) namespacePid = int.Parse(pids[^1], System.Globalization.CultureInfo.InvariantCulture);
        }
        bool otherMount = Namespace(processId, "mnt") != Namespace(Environment.ProcessId, "mnt");
        return new TargetView(processId, namespacePid, otherMount ? $"/proc/{processId}/root" : "/", otherMount,
            TempFolderOf(processId));
    }

    /// <summary>$TMPDIR the process started with, else /tmp: where its runtime's pipes are.</summary>
    private static string TempFolderOf(int processId)
    {
        try
        {
            foreach (string entry in File.ReadAllText($"/proc/{processId}/environ").Split('\0'))
                if (entry.StartsWith("TMPDIR=", StringComparison.Ordinal) && entry.Length > 7) return entry[7..];
        }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException) { }
        return "/tmp";
    }

    /// <summary>The path the adapter opens for a path the process names. Links inside are
    /// followed in the process's view (an absolute link never lands on the host's file).</summary>
    public string Reach(string path)
    {
        if (Root == "/" || !path.StartsWith('/')) return path;
        if (path.StartsWith(Root + "/", StringComparison.Ordinal)) return path;
        return _reached.GetOrAdd(path, p => Root + ResolveInside(p));
    }

    /// <summary>A path through this view's root as the process itself names it.</summary>
    public string Inside(string reached) =>
        Root != "/" && reached.StartsWith(Root + "/", StringComparison.Ordinal) ? reached[Root.Length..] : reached;

    private static string? Namespace(int processId, string kind)
    {
        try { return new FileInfo($"/proc/{processId}/ns/{kind}").LinkTarget; }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException) { return null; }
    }

    private string ResolveInside(string path)
    {
        var parts = new Queue<string>(path.Split('/', StringSplitOptions.RemoveEmptyEntries));
        var done = new List<string>();
        int hops = 0;
        while (parts.Count > 0)
        {
            string part = parts.Dequeue();
            if (part == ".") continue;
            if (part == "..") { if (done.Count > 0) done.RemoveAt(done.Count - 1); continue; }
            string here = Root + "/" + string.Join('/', done.Append(part));
            string? target = null;
            try { target = new FileInfo(here).LinkTarget; }
            catch (Exception exc) when (exc is IOException or UnauthorizedAccessException) { }
            if (target is null || ++hops > MaxLinks) { done.Add(part); continue; }
            if (target.StartsWith('/')) done.Clear();
            var rest = target.Split('/', StringSplitOptions.RemoveEmptyEntries).Concat(parts).ToList();
            parts = new Queue<string>(rest);
        }
        return "/" + string.Join('/', done);
    }
}
