// Which PDB document a breakpoint's path means. The same path once both are normalised
// (slashes, `.` and `..`), or once both have their symbolic links resolved (a project
// folder opened by a link), is that document. A path that cannot be compared whole (a
// relative one, or any path against a deterministic build's `/_/...` documents) means the
// document sharing the longest run of trailing path segments with it, when exactly one
// does; when several tie, it is ambiguous and the candidates are named.
namespace PyInspect.Debugger.Symbols;

public sealed record DocumentMatch(string? Document, IReadOnlyList<string> Ambiguous)
{
    private static readonly DocumentMatch None = new(null, []);

    public static DocumentMatch Find(string sourcePath, IEnumerable<string> documents)
    {
        string wanted = SourceFileMap.Normalize(sourcePath);
        var all = documents.ToList();
        foreach (var document in all)
            if (SourceFileMap.Normalize(document) == wanted) return new DocumentMatch(document, []);
        if (wanted.StartsWith('/'))
        {
            string real = SourceFileMap.Real(wanted);  // links resolved on both sides
            foreach (var document in all)
                if (SourceFileMap.Real(document) == real) return new DocumentMatch(document, []);
        }
        bool relative = !wanted.StartsWith('/') && !(wanted.Length > 2 && wanted[1] == ':');
        string[] segments = Segments(wanted);
        var scored = all
            .Where(d => relative || d.Replace('\\', '/').StartsWith("/_/", StringComparison.Ordinal))
            .Select(d => (Document: d, Shared: SharedTail(segments, Segments(SourceFileMap.Normalize(d)))))
            .Where(s => s.Shared > 0).ToList();
        if (scored.Count == 0) return None;
        int best = scored.Max(s => s.Shared);
        var top = scored.Where(s => s.Shared == best).Select(s => s.Document).ToList();
        return top.Count == 1 ? new DocumentMatch(top[0], []) : new DocumentMatch(null, top.Order(StringComparer.Ordinal).ToList());
    }

    private static string[] Segments(string path) =>
        path.Split('/', StringSplitOptions.RemoveEmptyEntries);

    private static int SharedTail(string[] a, string[] b)
    {
        int n = 0;
        while (n < a.Length && n < b.Length && a[^(n + 1)] == b[^(n + 1)]) n++;
        return n;
    }
}
