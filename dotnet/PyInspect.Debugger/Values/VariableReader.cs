// Turns ICorDebug values into VariableViews: dereferences references (keeping the object's
// address for memoryReference), unboxes, names the runtime type, formats the value and
// says what the variable expands to. Only valid while the process is stopped.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Values;

public static class VariableReader
{
    /// <summary>Elements listed when a client asks for an array's children without paging.</summary>
    public const int DefaultPageSize = 1000;

    public static VariableView Describe(string name, string evaluateName, ICorDebugValue value, bool hex = false)
    {
        value.GetType(out int declaredType);
        ulong? address = null;
        for (int hops = 0; hops < 4; hops++)
        {
            if (value is ICorDebugReferenceValue reference)
            {
                reference.IsNull(out int isNull);
                if (isNull != 0)
                    return new VariableView(name, "null", DeclaredTypeName(value, declaredType), evaluateName, null, null);
                reference.GetValue(out ulong target);
                if (reference.Dereference(out var referent) < 0)
                    return new VariableView(name, "<unreadable reference>", DeclaredTypeName(value, declaredType), evaluateName, target, null);
                address = target;
                value = referent;
                continue;
            }
            if (value is ICorDebugBoxValue box && box.GetObject(out var boxed) >= 0)
            {
                value = boxed;
                continue;
            }
            break;
        }
        return DescribeValue(name, evaluateName, value, address, hex);
    }

    private static string DeclaredTypeName(ICorDebugValue value, int elementType) =>
        value is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0 ? TypeNames.Format(type)
            : TypeNames.PrimitiveAlias(elementType) ?? "object";

    private static VariableView DescribeValue(string name, string evaluateName, ICorDebugValue value, ulong? address, bool hex)
    {
        ICorDebugType? exact = value is ICorDebugValue2 v2 && v2.GetExactType(out var t) >= 0 ? t : null;
        int elementType = 0;
        if (exact is null || exact.GetType(out elementType) < 0) value.GetType(out elementType);
        string typeName = exact is null ? TypeNames.PrimitiveAlias(elementType) ?? "?" : TypeNames.Format(exact);

        if (value is ICorDebugStringValue text)
            return new VariableView(name, ValueText.StringLiteral(ValueText.ReadString(text)), "string", evaluateName, address, null);
        if (value is ICorDebugArrayValue array)
            return DescribeArray(name, evaluateName, array, typeName, address);
        if (TypeNames.PrimitiveAlias(elementType) is not null && ValueText.RawBytes(value) is { } raw)
            return new VariableView(name, ValueText.Primitive(elementType, raw, hex), typeName, evaluateName, address, null);
        if (value is ICorDebugObjectValue obj && exact is not null)
            return DescribeObject(name, evaluateName, obj, exact, typeName, address, hex);
        return new VariableView(name, $"{{{typeName}}}", typeName, evaluateName, address, null);
    }

    private static VariableView DescribeArray(string name, string evaluateName, ICorDebugArrayValue array, string typeName, ulong? address)
    {
        uint[] dims = ArrayDimensions(array);
        int bracket = typeName.IndexOf('[');
        string shape = bracket < 0 ? typeName
            : typeName[..bracket] + "[" + string.Join(", ", dims) + "]" + typeName[(typeName.IndexOf(']', bracket) + 1)..];
        array.GetCount(out uint count);
        ChildSource? children = count > 0 ? new ArrayChildren(array, dims, evaluateName) : null;
        return new VariableView(name, $"{{{shape}}}", typeName, evaluateName, address, children, IndexedCount: (int)count);
    }

    public static unsafe uint[] ArrayDimensions(ICorDebugArrayValue array)
    {
        array.GetRank(out uint rank);
        var dims = new uint[Math.Max(rank, 1)];
        fixed (uint* p = dims) array.GetDimensions((uint)dims.Length, p);
        return dims;
    }

    private static VariableView DescribeObject(string name, string evaluateName, ICorDebugObjectValue obj,
        ICorDebugType type, string typeName, ulong? address, bool hex)
    {
        obj.IsValueClass(out int isValueClass);
        if (isValueClass != 0)
        {
            byte[]? raw = ValueText.RawBytes(obj);
            if (raw is not null && ValueText.KnownStruct(typeName, raw) is { } known)
                return new VariableView(name, known, typeName, evaluateName, address, null);
            if (raw is not null && obj.GetSize(out uint size) >= 0 && EnumText(type, raw, (int)size, hex) is { } enumText)
                return new VariableView(name, enumText, typeName, evaluateName, address, null);
            if (typeName.EndsWith('?') && NullableValue(obj, type) is { } inner)
                return inner.HasValue
                    ? Describe(name, evaluateName, inner.Value!, hex) with { Type = typeName }
                    : new VariableView(name, "null", typeName, evaluateName, null, null);
        }
        int members = InstanceFields(type).Count + PropertyGetters.Find(type).Count + (StaticMembers.Fields(type).Count > 0 ? 1 : 0);
        var objectChildren = members > 0 ? new ObjectChildren(obj, type, evaluateName, StrongHandle(obj, isValueClass)) : null;
        if (objectChildren is not null && CollectionItems.For(objectChildren) is { } collection)
            return new VariableView(name, $"Count = {collection.Count}", typeName, evaluateName, address, collection,
                NamedCount: 1, IndexedCount: collection.Count);
        ChildSource? children = objectChildren;
        return new VariableView(name, $"{{{typeName}}}", typeName, evaluateName, address, children, NamedCount: members);
    }

    private static ICorDebugHandleValue? StrongHandle(ICorDebugObjectValue obj, int isValueClass) =>
        isValueClass == 0 && obj is ICorDebugHeapValue2 heap && heap.CreateHandle(1, out var handle) >= 0 ? handle : null;

    /// <summary>Instance fields of the type and its bases (System.Object, ValueType, Enum excluded), derived first.</summary>
    public static List<(ICorDebugClass Class, FieldMeta Field)> InstanceFields(ICorDebugType type) =>
        [.. DeclaredFields(type).Where(f => !f.Field.IsStatic && !f.Field.IsLiteral).Select(f => (f.Class, f.Field))];

    /// <summary>Every field the type and its bases declare (System.Object, ValueType, Enum excluded),
    /// derived first, each with the type level (generic instantiation) and class declaring it.</summary>
    public static IEnumerable<(ICorDebugType Level, ICorDebugClass Class, FieldMeta Field)> DeclaredFields(ICorDebugType type)
    {
        ICorDebugType? current = type;
        for (int depth = 0; current is not null && depth < 32; depth++)
        {
            if (current.GetClass(out var cls) < 0) yield break;
            if (TypeNames.DeclaredName(cls) is "System.Object" or "System.ValueType" or "System.Enum") yield break;
            if (Metadata(cls) is { } md && cls.GetToken(out int token) >= 0)
                foreach (var field in md.GetFields(token))
                    yield return (current, cls, field);
            if (current.GetBase(out var baseType) < 0) yield break;
            current = baseType;
        }
    }

    public static ModuleMetadata? Metadata(ICorDebugClass cls)
    {
        if (cls.GetModule(out var module) < 0) return null;
        string path = DebuggerEngine.ModuleName(module);
        try { return File.Exists(path) ? ModuleMetadata.Open(path) : null; }
        catch (Exception e) when (e is IOException or BadImageFormatException) { return null; }
    }

    private static string? EnumText(ICorDebugType type, byte[] raw, int size, bool hex)
    {
        if (type.GetBase(out var baseType) < 0 || baseType is null || baseType.GetClass(out var baseClass) < 0) return null;
        if (TypeNames.DeclaredName(baseClass) != "System.Enum" || type.GetClass(out var cls) < 0) return null;
        if (Metadata(cls) is not { } md) return null;
        cls.GetToken(out int token);
        var members = md.GetEnumMembers(token);
        long value = EnumUnderlying(raw, size);
        if (EnumNames.Name(members, value) is { } name) return name;
        return hex ? $"0x{value:X}" : value.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }

    private static long EnumUnderlying(byte[] raw, int length) => length switch
    {
        1 => (sbyte)raw[0],
        2 => BitConverter.ToInt16(raw),
        4 => BitConverter.ToInt32(raw),
        _ => BitConverter.ToInt64(raw),
    };

    private static (bool HasValue, ICorDebugValue? Value)? NullableValue(ICorDebugObjectValue obj, ICorDebugType type)
    {
        ICorDebugValue? hasValue = null, inner = null;
        foreach (var (cls, field) in InstanceFields(type))
        {
            if (obj.GetFieldValue(cls, field.Token, out var fieldValue) < 0) return null;
            if (field.Name == "hasValue") hasValue = fieldValue;
            else if (field.Name == "value") inner = fieldValue;
        }
        if (hasValue is null || inner is null || ValueText.RawBytes(hasValue) is not { } flag) return null;
        return (flag[0] != 0, inner);
    }
}
