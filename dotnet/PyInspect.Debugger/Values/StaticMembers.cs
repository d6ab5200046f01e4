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
    public static List<(ICorDebugType Level, ICorDebugClass Class, FieldMeta Field)> Fields(ICorDebugType type)
    {
        var fields = new List<(ICorDebugType, ICorDebugClass, FieldMeta)>();
        ICorDebugType? current = type;
        for (int depth = 0; current is not null && depth < 32; depth++)
        {
            if (current.GetClass(out var cls) < 0) break;
            if (TypeNames.DeclaredName(cls) is "System.Object" or "System.ValueType" or "System.Enum") break;
            if (VariableReader.Metadata(cls) is { } md && cls.GetToken(out int token) >= 0)
                foreach (var field in md.GetFields(token))
                    if (field.IsStatic && !field.IsLiteral && !field.DisplayName.StartsWith('<'))
                        fields.Add((current, cls, field));
            if (current.GetBase(out var baseType) < 0) break;
            current = baseType;
        }
        return fields;
    }

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
