// The C# name of an interpreter type, spelled as the variables view spells a runtime type
// (Values/TypeNames.Format: "int", "string", "decimal", "int?", "List<int>", "int[,]"), so a
// value the interpreter made is shown under the same name func-eval's value would be.
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Evaluation.IL.Metadata;

public static class IlTypeNames
{
    public static string Format(IlType type) => type switch
    {
        IlPrimitive primitive => TypeNames.PrimitiveAlias(primitive.ElementType) ?? primitive.Key,
        IlArray array => ArrayName(array),
        IlPointer { Managed: false } pointer => Format(pointer.Element) + "*",
        IlNamed named => ClassName(named),
        _ => throw new IlRefusal($"has no name for the type {type.Key}"),
    };

    /// <summary>Jagged arrays read inside out: int[][,] is an array of int[,].</summary>
    private static string ArrayName(IlArray array)
    {
        string suffix = array.Rank <= 1 ? "[]" : "[" + new string(',', array.Rank - 1) + "]";
        string inner = Format(array.Element);
        int bracket = inner.IndexOf('[');
        return bracket < 0 ? inner + suffix : inner[..bracket] + suffix + inner[bracket..];
    }

    private static string ClassName(IlNamed type)
    {
        string name = type.Name;
        if (name == "System.Decimal") return "decimal";
        if (type.Arguments.Count == 0 && IlPrimitive.ElementTypeOf(name) is int elementType) return Format(new IlPrimitive(elementType));
        if (name == "System.Nullable`1" && type.Arguments.Count == 1) return Format(type.Arguments[0]) + "?";
        int tick = name.IndexOf('`');
        if (tick >= 0) name = name[..tick] + name[(name.IndexOf('.', tick) is var dot and >= 0 ? dot : name.Length)..];
        return type.Arguments.Count == 0 ? name : $"{name}<{string.Join(", ", type.Arguments.Select(Format))}>";
    }
}
