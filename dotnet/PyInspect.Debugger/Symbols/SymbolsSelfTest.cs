using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Symbols;

/// <summary>
/// Diagnostic: `PyInspect.Debugger.dll --symbols-selftest DLL SOURCE LINE` prints, as JSON
/// on stdout, what the adapter would bind a breakpoint at SOURCE:LINE to (methods, their
/// display names, spans, step ranges, locals in scope) plus every type's metadata view.
/// It lets tests check the symbol layer against real compiled code without a debuggee.
/// </summary>
public static class SymbolsSelfTest
{
    public static int Run(string modulePath, string sourcePath, int line, TextWriter output)
    {
        using var symbols = ModuleSymbols.TryLoad(modulePath);
        if (symbols == null)
        {
            Console.Error.WriteLine($"no portable PDB for {modulePath}");
            return 1;
        }
        var metadata = ModuleMetadata.Open(modulePath);
        var bound = new JsonArray();
        foreach (var resolved in symbols.ResolveLine(sourcePath, line))
            bound.Add(Describe(symbols, metadata, resolved));
        var result = new JsonObject
        {
            ["sourceFiles"] = new JsonArray(symbols.SourceFiles.Select(f => (JsonNode)f!).ToArray()),
            ["bound"] = bound,
            ["types"] = DescribeTypes(modulePath, metadata),
        };
        output.WriteLine(result.ToJsonString());
        return 0;
    }

    private static JsonObject Describe(ModuleSymbols symbols, ModuleMetadata metadata, ResolvedLine r)
    {
        var span = symbols.GetSourceSpan(r.MethodToken, r.IlOffset);
        return new JsonObject
        {
            ["method"] = metadata.GetMethodDisplayName(r.MethodToken),
            ["token"] = r.MethodToken,
            ["ilOffset"] = r.IlOffset,
            ["line"] = r.Line,
            ["column"] = r.Column,
            ["spanLine"] = span?.Line,
            ["isStatic"] = metadata.IsStatic(r.MethodToken),
            ["hasSource"] = symbols.HasSource(r.MethodToken),
            ["parameters"] = new JsonArray(metadata.GetParameterNames(r.MethodToken).Select(p => (JsonNode)p!).ToArray()),
            ["stepRanges"] = new JsonArray(symbols.GetStepRanges(r.MethodToken, r.IlOffset)
                .Select(s => (JsonNode)new JsonArray(s.Start, s.End)).ToArray()),
            ["locals"] = new JsonArray(symbols.GetLocals(r.MethodToken, r.IlOffset)
                .Select(l => (JsonNode)new JsonObject { ["name"] = l.Name, ["slot"] = l.SlotIndex }).ToArray()),
        };
    }

    private static JsonObject DescribeTypes(string modulePath, ModuleMetadata metadata)
    {
        using var pe = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(modulePath));
        var md = pe.GetMetadataReader();
        var types = new JsonObject();
        foreach (var handle in md.TypeDefinitions)
        {
            int token = MetadataTokens.GetToken(handle);
            string name = metadata.GetTypeName(token);
            var baseType = metadata.GetBaseType(token);
            types[name] = new JsonObject
            {
                ["base"] = baseType is { } b ? (b.ExternalTypeName ?? metadata.GetTypeName(b.Token)) : null,
                ["fields"] = new JsonArray(metadata.GetFields(token).Select(f => (JsonNode)new JsonObject
                    { ["name"] = f.Name, ["display"] = f.DisplayName, ["static"] = f.IsStatic, ["literal"] = f.IsLiteral }).ToArray()),
                ["properties"] = new JsonArray(metadata.GetProperties(token).Select(p => (JsonNode)new JsonObject
                    { ["name"] = p.Name, ["hasGetter"] = p.GetterToken != 0, ["static"] = p.IsStatic }).ToArray()),
                ["methods"] = new JsonArray(md.GetTypeDefinition(handle).GetMethods()
                    .Select(m => (JsonNode)metadata.GetMethodDisplayName(MetadataTokens.GetToken(m))!).ToArray()),
            };
        }
        return types;
    }
}
