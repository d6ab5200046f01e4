// The values an expression passes around. Numbers, bools, chars, strings and null are
// plain .NET values computed in the adapter; everything else stays in the debuggee.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Evaluation.Core;

/// <summary>A value in the debuggee (object, array, struct), shown as the variables view shows it.
/// One read from a collection knows how to read itself again after a func-eval neutered it.</summary>
public sealed class RemoteValue
{
    private ICorDebugValue? _value;
    private readonly Func<ICorDebugValue>? _reread;
    private ulong _address;
    private int _generation = EvalContext.Generation;

    /// <summary>A value; `reread` finds it again after a func-eval neutered it.</summary>
    public RemoteValue(ICorDebugValue value, Func<ICorDebugValue>? reread = null)
    {
        _value = value;
        _reread = reread;
    }

    /// <summary>An object reference read from memory in bulk: its ICorDebugValue is made only when asked for.</summary>
    public RemoteValue(ulong objectAddress, Func<ICorDebugValue> materialize)
    {
        _address = objectAddress;
        _reread = materialize;
    }

    /// <summary>The object's address as read in bulk, while no func-eval has run since (a GC may move it).</summary>
    public ulong? ObjectAddress => _address != 0 && _generation == EvalContext.Generation ? _address : null;

    public ICorDebugValue Value
    {
        get
        {
            if (_reread is not null && (_value is null || _generation != EvalContext.Generation))
            {
                if (_generation != EvalContext.Generation) _address = 0;
                _value = _reread();
                _generation = EvalContext.Generation;
            }
            return _value!;
        }
    }
}

/// <summary>An enum value: its C# type name, underlying number and member name(s).</summary>
public sealed record EnumValue(string TypeName, long Number, string Text)
{
    public override string ToString() => Text;
}

/// <summary>A type named in the expression (for static members, casts, typeof).</summary>
public sealed record TypeRef(LoadedModule Module, int Token, string FullName);

/// <summary>A namespace prefix being spelled out ("System.Collections").</summary>
public sealed record NamespaceRef(string Name);

/// <summary>The result of typeof(T).</summary>
public sealed record TypeOfValue(string FullName);

/// <summary>A key/value pair read from a Dictionary's entries.</summary>
public sealed record PairValue(object? Key, object? Value);

/// <summary>A sequence computed in the adapter (LINQ results).</summary>
public sealed record SequenceValue(IReadOnlyList<object?> Items, string ElementType);

/// <summary>Values built by the evaluator itself that are neither numbers nor strings.</summary>
public interface IComputedValue;

/// <summary>One group of GroupBy: its key and its items.</summary>
public sealed record GroupingValue(object? Key, SequenceValue Items) : IComputedValue;

/// <summary>`new { a, B = x }`: named members, in order.</summary>
public sealed record AnonymousValue(IReadOnlyList<KeyValuePair<string, object?>> Members) : IComputedValue;

/// <summary>Why an expression could not be evaluated; the message goes to the client.</summary>
public class EvalException(string message) : Exception(message);

public static class EvalValues
{
    /// <summary>A debuggee primitive, string, enum or nullable as a local value; objects stay remote.</summary>
    public static object? Local(object? value) => value switch
    {
        RemoteValue remote => FromDebuggee(remote.Value),
        NullOf => null,
        MadeValue { Unwrapped: { } inner } => inner,
        _ => value,
    };

    /// <summary>The runtime type a C# keyword names ("int" is System.Int32), or null.</summary>
    public static string? KeywordType(string keyword) => keyword switch
    {
        "bool" => "System.Boolean", "char" => "System.Char", "sbyte" => "System.SByte", "byte" => "System.Byte",
        "short" => "System.Int16", "ushort" => "System.UInt16", "int" => "System.Int32", "uint" => "System.UInt32",
        "long" => "System.Int64", "ulong" => "System.UInt64", "float" => "System.Single", "double" => "System.Double",
        "decimal" => "System.Decimal", "string" => "System.String", "object" => "System.Object",
        "nint" => "System.IntPtr", "nuint" => "System.UIntPtr",
        _ => null,
    };

    /// <summary>A debuggee value as a local one where it is a primitive, string, enum or null.</summary>
    public static object? FromDebuggee(ICorDebugValue value)
    {
        ICorDebugValue? target = ValuePath.Dereference(value);
        if (target is null) return null;
        if (target is ICorDebugStringValue text) return ValueText.ReadString(text);
        ICorDebugType? exact = target is ICorDebugValue2 v2 && v2.GetExactType(out var t) >= 0 ? t : null;
        int elementType = 0;
        if (exact is null || exact.GetType(out elementType) < 0) target.GetType(out elementType);
        if (Primitive(elementType, target) is { } primitive) return primitive;
        if (exact is not null && target is ICorDebugObjectValue obj && elementType == CorElementType.ValueType)
        {
            string name = TypeNames.Format(exact);
            if (BoxedPrimitive(name) is int primitiveType && Primitive(primitiveType, target) is { } unboxed) return unboxed;
            byte[]? raw = ValueText.RawBytes(target);
            if (name == "decimal" && raw is not null) return ReadDecimal(raw);
            if (name.EndsWith('?') && Nullable(obj, exact) is { } inner) return inner.HasValue ? FromDebuggee(inner.Value!) : null;
            if (raw is not null && target.GetSize(out uint size) >= 0 && EnumOf(exact, raw, (int)size, name) is { } enumValue)
                return enumValue;
        }
        return new RemoteValue(value);
    }

    /// <summary>A boxed int reads as the struct System.Int32: its element type by its C# name.</summary>
    private static int? BoxedPrimitive(string name)
    {
        for (int elementType = CorElementType.Boolean; elementType <= CorElementType.R8; elementType++)
            if (TypeNames.PrimitiveAlias(elementType) is { } alias && (alias == name || KeywordType(alias) == name)) return elementType;
        return name switch { "nint" or "System.IntPtr" => CorElementType.I, "nuint" or "System.UIntPtr" => CorElementType.U, _ => null };
    }

    private static object? Primitive(int elementType, ICorDebugValue value)
    {
        if (TypeNames.PrimitiveAlias(elementType) is null || elementType is CorElementType.String or CorElementType.Object or CorElementType.Void)
            return null;
        return ValueText.RawBytes(value) is { } raw ? FromBytes(elementType, raw) : null;
    }

    /// <summary>Bytes a primitive element occupies (null for other element types).</summary>
    public static int? PrimitiveSize(int elementType) => elementType switch
    {
        CorElementType.Boolean or CorElementType.I1 or CorElementType.U1 => 1,
        CorElementType.Char or CorElementType.I2 or CorElementType.U2 => 2,
        CorElementType.I4 or CorElementType.U4 or CorElementType.R4 => 4,
        CorElementType.I8 or CorElementType.U8 or CorElementType.R8 or CorElementType.I or CorElementType.U => 8,
        _ => null,
    };

    /// <summary>A primitive of the element type from its little-endian bytes.</summary>
    public static object? FromBytes(int elementType, ReadOnlySpan<byte> raw) =>
        elementType switch
        {
            CorElementType.Boolean => raw[0] != 0,
            CorElementType.Char => (char)BitConverter.ToUInt16(raw),
            CorElementType.I1 => (sbyte)raw[0], CorElementType.U1 => raw[0],
            CorElementType.I2 => BitConverter.ToInt16(raw), CorElementType.U2 => BitConverter.ToUInt16(raw),
            CorElementType.I4 => BitConverter.ToInt32(raw), CorElementType.U4 => BitConverter.ToUInt32(raw),
            CorElementType.I8 => BitConverter.ToInt64(raw), CorElementType.U8 => BitConverter.ToUInt64(raw),
            CorElementType.I => (nint)BitConverter.ToInt64(raw), CorElementType.U => (nuint)BitConverter.ToUInt64(raw),
            CorElementType.R4 => BitConverter.ToSingle(raw), CorElementType.R8 => BitConverter.ToDouble(raw),
            _ => null,
        };

    public static object? ReadDecimalBoxed(byte[] raw) => ReadDecimal(raw);

    public static decimal ReadDecimal(byte[] raw)
    {
        ulong lo64 = BitConverter.ToUInt64(raw, 8);
        return new decimal([(int)lo64, (int)(lo64 >> 32), BitConverter.ToInt32(raw, 4), BitConverter.ToInt32(raw, 0)]);
    }

    private static (bool HasValue, ICorDebugValue? Value)? Nullable(ICorDebugObjectValue obj, ICorDebugType type)
    {
        ICorDebugValue? hasValue = null, inner = null;
        foreach (var (cls, field) in VariableReader.InstanceFields(type))
        {
            if (obj.GetFieldValue(cls, field.Token, out var fieldValue) < 0) return null;
            if (field.Name == "hasValue") hasValue = fieldValue;
            else if (field.Name == "value") inner = fieldValue;
        }
        if (hasValue is null || inner is null || ValueText.RawBytes(hasValue) is not { } flag) return null;
        return (flag[0] != 0, inner);
    }

    private static EnumValue? EnumOf(ICorDebugType type, byte[] raw, int size, string typeName)
    {
        if (type.GetBase(out var baseType) < 0 || baseType is null || baseType.GetClass(out var baseClass) < 0) return null;
        if (TypeNames.DeclaredName(baseClass) != "System.Enum" || type.GetClass(out var cls) < 0) return null;
        if (VariableReader.Metadata(cls) is not { } md || cls.GetToken(out int token) < 0) return null;
        var members = md.GetEnumMembers(token);
        long number = size switch
        {
            1 => (sbyte)raw[0], 2 => BitConverter.ToInt16(raw), 4 => BitConverter.ToInt32(raw), _ => BitConverter.ToInt64(raw),
        };
        return MakeEnum(typeName, number, members);
    }

    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, IReadOnlyList<(string Name, long Value)>> EnumMembers = new();

    /// <summary>An enum value of a type seen before (its members remembered), e.g. for `a | b`.</summary>
    public static EnumValue MakeEnum(string typeName, long number) =>
        MakeEnum(typeName, number, EnumMembers.GetValueOrDefault(typeName) ?? []);

    public static EnumValue MakeEnum(string typeName, long number, IReadOnlyList<(string Name, long Value)> members)
    {
        if (members.Count > 0) EnumMembers[typeName] = members;
        if (EnumNames.Name(members, number) is { } name) return new EnumValue(typeName, number, name);
        return new EnumValue(typeName, number, number.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    /// <summary>null, a null reference, or a Nullable&lt;T&gt; without a value.</summary>
    public static bool IsNull(object? value) =>
        value is null or NullOf || (value is RemoteValue remote && FromDebuggee(remote.Value) is null);
}
