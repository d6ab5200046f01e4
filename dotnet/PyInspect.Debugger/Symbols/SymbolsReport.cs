using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Symbols;

/// <summary>Diagnostic: `PyInspect.Debugger.dll --symbols MODULE SOURCE LINE` prints, as
/// JSON, how a breakpoint on that line would bind (method, IL offset, locals in scope,
/// statement range). For tests and for users asking why a breakpoint moved.</summary>
public static class SymbolsReport
{
    public static int Run(string modulePath, string sourcePath, int line, TextWriter output)
    {
        using ModuleSymbols? symbols = ModuleSymbols.TryLoad(modulePath);
        if (symbols is null)
        {
            output.WriteLine(new JsonObject { ["error"] = $"no portable PDB for {modulePath}" }.ToJsonString());
            return 1;
        }
        ModuleMetadata metadata = ModuleMetadata.Open(modulePath);
        var bindings = new JsonArray();
        foreach (ResolvedLine bound in symbols.ResolveLine(sourcePath, line))
            bindings.Add(Describe(symbols, metadata, bound));
        output.WriteLine(new JsonObject { ["bindings"] = bindings }.ToJsonString());
        return 0;
    }

    private static JsonObject Describe(ModuleSymbols symbols, ModuleMetadata metadata, ResolvedLine bound)
    {
        var locals = new JsonArray();
        foreach (LocalInfo local in symbols.GetLocals(bound.MethodToken, bound.IlOffset))
            locals.Add(new JsonObject { ["name"] = local.Name, ["slot"] = local.SlotIndex });
        var ranges = new JsonArray();
        foreach (IlRange range in symbols.GetStepRanges(bound.MethodToken, bound.IlOffset))
            ranges.Add(new JsonArray(range.Start, range.End));
        SourceSpan? span = symbols.GetSourceSpan(bound.MethodToken, bound.IlOffset);
        return new JsonObject
        {
            ["method"] = metadata.GetMethodDisplayName(bound.MethodToken),
            ["methodToken"] = bound.MethodToken,
            ["parameters"] = new JsonArray(metadata.GetParameterNames(bound.MethodToken).Select(p => (JsonNode?)p).ToArray()),
            ["ilOffset"] = bound.IlOffset,
            ["line"] = bound.Line,
            ["column"] = bound.Column,
            ["source"] = bound.SourcePath,
            ["spanLine"] = span?.Line,
            ["locals"] = locals,
            ["stepRanges"] = ranges,
        };
    }
}
