// The "Static members" node of an object in the variables view: the static fields of its
// type and base types (constants and compiler-generated fields left out), read with the
// object's other members.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Values;

public static class StaticMembers
{
    public const string NodeName = "Static members";

    /// <summary>Static fields to show, with the class (or generic instantiation) that holds each.</summary>
    public static List<(ICorDebugType Level, ICorDebugClass Class, FieldMeta Field)> Fields(ICorDebugType type) =>
        [.. VariableReader.DeclaredFields(type).Where(f => f.Field.IsStatic && !f.Field.IsLiteral && !f.Field.DisplayName.StartsWith('<'))];

    /// <summary>The node itself; its children read the values.</summary>
    public static VariableView Node(ICorDebugType type, bool hex)
    {
        string typeName = TypeNames.Format(type);
        var views = new List<VariableView>();
        foreach (var (level, cls, field) in Fields(type))
        {
            string evaluateName = $"{typeName}.{field.DisplayName}";
            int hr = TypeNames.TypeArguments(level).Count > 0
                ? level.GetStaticFieldValue(field.Token, null, out var value)
                : cls.GetStaticFieldValue(field.Token, null, out value);
            views.Add(hr >= 0
                ? VariableReader.Describe(field.DisplayName, evaluateName, value, hex) with { Kind = "static" }
                : new VariableView(field.DisplayName, $"<not available: 0x{hr:X8}>", "?", evaluateName, null, null, Kind: "static"));
        }
        return new VariableView(NodeName, "", "", "", null, new ListChildren(views), NamedCount: views.Count, Kind: "static");
    }
}
