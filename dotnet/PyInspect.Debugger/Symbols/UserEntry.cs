// Where stop-at-entry stops: the first line of the user's Main body. For an ordinary Main
// that is the entry point itself. For `async Task Main` the entry point is the compiler's
// `<Main>` (no source), which calls the user's `Main` kickoff stub, whose body runs in its
// state machine's MoveNext: the entry is that MoveNext's first sequence point (the same for
// async top-level statements, whose body is `<Main>$`).
namespace PyInspect.Debugger.Symbols;

public static class UserEntry
{
    /// <summary>The method and IL offset of the user's first line; null when the module has no entry point.</summary>
    public static (int MethodToken, int IlOffset)? Find(ModuleMetadata metadata, ModuleSymbols symbols)
    {
        int method = metadata.GetEntryPointToken();
        if (method == 0) return null;
        if (!symbols.HasSource(method) && UserMainBehind(metadata, method) is { } main) method = main;
        if (metadata.StateMachineMoveNext(method) is { } moveNext) method = moveNext;
        return (method, symbols.FirstStatementOffset(method) ?? 0);
    }

    /// <summary>The user's method beside a synthesized `&lt;Main&gt;` entry point, in the same
    /// type: `Main`, or top-level statements' `&lt;Main&gt;$`.</summary>
    private static int? UserMainBehind(ModuleMetadata metadata, int entry)
    {
        string shown = metadata.GetMethodDisplayName(entry);
        string name = shown[(shown.LastIndexOf('.') + 1)..];
        if (!name.StartsWith('<') || !name.EndsWith('>')) return null;
        int type = metadata.DeclaringTypeOfMethod(entry);
        return ((string[])[name[1..^1], name + "$"])
            .SelectMany(candidate => metadata.Methods(type, candidate)).Select(m => (int?)m.Token).FirstOrDefault();
    }
}
