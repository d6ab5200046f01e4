// C#-style names for runtime types ("int", "string", "List<int>", "int[,]", "int?"),
// from ICorDebugType and the declaring module's metadata. Cached per (module, token).
using System.Collections.Concurrent;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Values;

public static class TypeNames
{
    private static readonly ConcurrentDictionary<(string, int), string> ClassNames = new();

    public static string? PrimitiveAlias(int elementType) => elementType switch
    {
        CorElementType.Boolean => "bool", CorElementType.Char => "char",
        CorElementType.I1 => "sbyte", CorElementType.U1 => "byte",
        CorElementType.I2 => "short", CorElementType.U2 => "ushort",
        CorElementType.I4 => "int", CorElementType.U4 => "uint",
        CorElementType.I8 => "long", CorElementType.U8 => "ulong",
        CorElementType.R4 => "float", CorElementType.R8 => "double",
        CorElementType.I => "nint", CorElementType.U => "nuint",
        CorElementType.String => "string", CorElementType.Object => "object",
        CorElementType.Void => "void",
        _ => null,
    };

    public static string Format(ICorDebugType type)
    {
        if (type.GetType(out int elementType) < 0) return "?";
        if (PrimitiveAlias(elementType) is { } alias) return alias;
        switch (elementType)
        {
            case CorElementType.SzArray:
                return ArrayName(type, "[]");
            case CorElementType.Array:
                type.GetRank(out uint rank);
                return ArrayName(type, "[" + new string(',', (int)Math.Max(rank, 1) - 1) + "]");
            case CorElementType.Ptr:
                return type.GetFirstTypeParameter(out var pointee) >= 0 ? Format(pointee) + "*" : "pointer";
            case CorElementType.Class:
            case CorElementType.ValueType:
                return ClassName(type);
            default:
                return "?";
        }
    }

    /// <summary>Jagged arrays read inside out: int[][,] is an array of int[,].</summary>
    private static string ArrayName(ICorDebugType type, string suffix)
    {
        if (type.GetFirstTypeParameter(out var element) < 0) return "?" + suffix;
        string inner = Format(element);
        int bracket = inner.IndexOf('[');
        return bracket < 0 ? inner + suffix : inner[..bracket] + suffix + inner[bracket..];
    }

    private static string ClassName(ICorDebugType type)
    {
        if (type.GetClass(out var cls) < 0) return "?";
        string name = DeclaredName(cls);
        IReadOnlyList<ICorDebugType> arguments = TypeArguments(type);
        if (name == "System.Decimal") return "decimal";
        if (name == "System.Nullable`1" && arguments.Count == 1)
            return Format(arguments[0]) + "?";
        int tick = name.IndexOf('`');
        if (tick >= 0) name = name[..tick] + name[(name.IndexOf('.', tick) is var dot and >= 0 ? dot : name.Length)..];
        return arguments.Count == 0 ? name : $"{name}<{string.Join(", ", arguments.Select(Format))}>";
    }

    /// <summary>The declared name of the class of the object a value is or refers to; null for null or a primitive.</summary>
    public static string? ClassName(ICorDebugValue value) =>
        ValuePath.Dereference(value) is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0
            && type.GetClass(out var cls) >= 0 ? DeclaredName(cls) : null;

    /// <summary>The metadata name of a class ("System.Collections.Generic.List`1").</summary>
    public static string DeclaredName(ICorDebugClass cls)
    {
        if (cls.GetToken(out int token) < 0 || cls.GetModule(out var module) < 0) return "?";
        string path = DebuggerEngine.ModuleName(module);
        return ClassNames.GetOrAdd((path, token), key =>
        {
            try { return ModuleMetadata.Open(key.Item1).GetTypeName(key.Item2); }
            catch (Exception e) when (e is IOException or BadImageFormatException or UnauthorizedAccessException) { return "?"; }
        });
    }

    public static unsafe IReadOnlyList<ICorDebugType> TypeArguments(ICorDebugType type)
    {
        if (type.EnumerateTypeParameters(out var parameters) < 0) return [];
        var list = new List<ICorDebugType>();
        nint item;
        while (parameters.Next(1, &item, out uint fetched) == 0 && fetched == 1)
        {
            list.Add(DebuggerEngine.Wrap<ICorDebugType>(item));
            System.Runtime.InteropServices.Marshal.Release(item);
        }
        return list;
    }
}
