using System.Globalization;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Formats values as the inspection contract shows them: "42", "true", "'a'",
/// "\"text\"", "null", "{Namespace.Type}", arrays as "{System.Int32[3]}".
/// </summary>
internal static class ValueFormatter
{
    public const int MaxStringPreview = 1024;

    /// <summary>Size in bytes of a primitive element type; 0 for anything else.</summary>
    public static int PrimitiveSize(ClrElementType type, int pointerSize) => type switch
    {
        ClrElementType.Boolean or ClrElementType.Int8 or ClrElementType.UInt8 => 1,
        ClrElementType.Char or ClrElementType.Int16 or ClrElementType.UInt16 => 2,
        ClrElementType.Int32 or ClrElementType.UInt32 or ClrElementType.Float => 4,
        ClrElementType.Int64 or ClrElementType.UInt64 or ClrElementType.Double => 8,
        ClrElementType.NativeInt or ClrElementType.NativeUInt or ClrElementType.Pointer
            or ClrElementType.FunctionPointer => pointerSize,
        _ => 0,
    };

    public static bool IsReference(ClrElementType type) => type is ClrElementType.String
        or ClrElementType.Class or ClrElementType.Object or ClrElementType.Array
        or ClrElementType.SZArray or ClrElementType.Var or ClrElementType.GenericInstantiation;

    /// <summary>A primitive read straight from memory at an absolute address.</summary>
    public static string Primitive(IMemoryReader memory, ClrElementType type, ulong address) => type switch
    {
        ClrElementType.Boolean => memory.Read<byte>(address) != 0 ? "true" : "false",
        ClrElementType.Char => "'" + (char)memory.Read<ushort>(address) + "'",
        ClrElementType.Int8 => memory.Read<sbyte>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.UInt8 => memory.Read<byte>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.Int16 => memory.Read<short>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.UInt16 => memory.Read<ushort>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.Int32 => memory.Read<int>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.UInt32 => memory.Read<uint>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.Int64 => memory.Read<long>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.UInt64 => memory.Read<ulong>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.Float => memory.Read<float>(address).ToString(CultureInfo.InvariantCulture),
        ClrElementType.Double => memory.Read<double>(address).ToString(CultureInfo.InvariantCulture),
        _ => HeapJson.Hex(memory.Read<ulong>(address)),
    };

    /// <summary>The value text of a non-null reference to obj.</summary>
    public static string Reference(ClrObject obj)
    {
        var type = obj.Type;
        if (type is null)
            return "{?}";
        if (type.IsString)
            return "\"" + (obj.AsString(MaxStringPreview) ?? "") + "\"";
        if (type.IsArray)
            return "{" + TypeNames.Reflection(ArrayName(type.Name ?? "?", ArrayDimensions(obj))) + "}";
        if (obj.IsBoxedValue && Boxed(obj, type) is { } boxed)
            return boxed;
        return "{" + TypeNames.Reflection(type.Name) + "}";
    }

    /// <summary>A boxed primitive or known struct shown as its value ("42", "1234.56").</summary>
    private static string? Boxed(ClrObject obj, ClrType type)
    {
        var memory = type.Heap.Runtime.DataTarget.DataReader;
        ulong data = obj.Address + (ulong)memory.PointerSize;
        var element = type.IsEnum ? type.AsEnum().ElementType : type.ElementType;
        if (PrimitiveSize(element, memory.PointerSize) > 0)
            return Primitive(memory, element, data);
        return KnownValues.TryFormat(memory, type, data);
    }

    public static int[] ArrayDimensions(ClrObject obj)
    {
        var array = obj.AsArray();
        var dims = new int[array.Rank];
        for (int i = 0; i < dims.Length; i++)
            dims[i] = array.GetLength(i);
        return dims;
    }

    /// <summary>"System.Int32[,]" with dims [2,3] becomes "System.Int32[2, 3]"; jagged keeps the tail.</summary>
    public static string ArrayName(string typeName, int[] dims)
    {
        int open = typeName.IndexOf('[', Math.Max(0, typeName.LastIndexOf('>') + 1));
        int close = open < 0 ? -1 : typeName.IndexOf(']', open);
        if (open < 0 || close < 0)
            return typeName;
        return typeName[..open] + "[" + string.Join(", ", dims) + "]" + typeName[(close + 1)..];
    }
}
