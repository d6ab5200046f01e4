// launch/attach `sourceFileMap`: { "<path the PDB was built with>": "<path on this machine>" }.
// Both ways: a breakpoint's local path is looked up in the PDB under its build path, and a
// stack frame's build path is shown as the local one. Longest prefix wins.
using System.Runtime.InteropServices;
using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Symbols;

public sealed class SourceFileMap
{
    private readonly List<(string Build, string Local)> _pairs;

    private SourceFileMap(List<(string Build, string Local)> pairs) => _pairs = pairs;

    public static SourceFileMap Empty { get; } = new([]);

    public static SourceFileMap From(JsonNode? argument)
    {
        if (argument is not JsonObject map) return Empty;
        var pairs = map.Where(p => p.Value is JsonValue)
            .Select(p => (Build: Normalize(p.Key), Local: Normalize(p.Value!.GetValue<string>())))
            .OrderByDescending(p => p.Build.Length + p.Local.Length).ToList();
        return new SourceFileMap(pairs);
    }

    /// <summary>Forward slashes, and `..` resolved in an absolute path: the form paths are compared in.</summary>
    public static string Normalize(string path)
    {
        string slashed = path.Replace('\\', '/');
        bool rooted = slashed.StartsWith('/') || (slashed.Length > 2 && slashed[1] == ':');
        return rooted && slashed.StartsWith('/') ? Path.GetFullPath(slashed) : slashed;
    }

    /// <summary>An absolute path with its symbolic links resolved (libc realpath) when it
    /// exists here, else its normalised form: a project opened through a linked folder names
    /// the same files as the PDB's build paths.</summary>
    public static string Real(string path)
    {
        string normalized = Normalize(path);
        if (!normalized.StartsWith('/')) return normalized;
        nint resolved = realpath(normalized, 0);
        if (resolved == 0) return normalized;
        try { return Marshal.PtrToStringUTF8(resolved) ?? normalized; }
        finally { free(resolved); }
    }

    [DllImport("libc", SetLastError = true)]
    private static extern nint realpath(string path, nint resolved);

    [DllImport("libc")]
    private static extern void free(nint pointer);

    public string ToBuild(string localPath) => Replace(Normalize(localPath), p => p.Local, p => p.Build);

    public string ToLocal(string buildPath) => Replace(Normalize(buildPath), p => p.Build, p => p.Local);

    private string Replace(string path, Func<(string Build, string Local), string> from, Func<(string Build, string Local), string> to)
    {
        foreach (var pair in _pairs.OrderByDescending(p => from(p).Length))
        {
            string prefix = from(pair).TrimEnd('/');
            if (path == prefix || path.StartsWith(prefix + "/", StringComparison.Ordinal))
                return to(pair).TrimEnd('/') + path[prefix.Length..];
        }
        return path;
    }
}
