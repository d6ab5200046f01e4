// Properties whose value only a getter can give (no backing field we already show):
// instance, parameterless, derived type first, a name listed once. Read from metadata; the
// getters run later, by func-eval, only for the page of children a client asks for.
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

public sealed record GetterProperty(string Name, ICorDebugFunction Getter);

public static class PropertyGetters
{
    public static List<GetterProperty> Find(ICorDebugType type)
    {
        var found = new List<GetterProperty>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (_, field) in VariableReader.InstanceFields(type)) seen.Add(field.DisplayName);
        ICorDebugType? current = type;
        for (int depth = 0; current is not null && depth < 32; depth++)
        {
            if (current.GetClass(out var cls) < 0) break;
            if (TypeNames.DeclaredName(cls) is "System.Object" or "System.ValueType" or "System.Enum") break;
            if (VariableReader.Metadata(cls) is { } md && cls.GetModule(out var module) >= 0)
            {
                cls.GetToken(out int token);
                foreach (var property in md.GetProperties(token))
                {
                    if (property.GetterToken == 0 || property.IsStatic || !seen.Add(property.Name)) continue;
                    if (md.GetParameterNames(property.GetterToken).Count > 0) continue;  // an indexer
                    if (module.GetFunctionFromToken(property.GetterToken, out var getter) >= 0)
                        found.Add(new GetterProperty(property.Name, getter));
                }
            }
            if (current.GetBase(out var baseType) < 0) break;
            current = baseType;
        }
        return found;
    }
}
