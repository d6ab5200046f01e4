// What the interpreter's stack and slots hold. Numbers as the IL stack types (int, long,
// double), decimal as .NET's, strings as .NET strings (immutable on both sides), null;
// debuggee objects and structs as their ICorDebugValues (read, never written); objects,
// structs, boxes and arrays the interpreted code makes as adapter-side values; managed
// pointers as IlRef (a slot, a field, an element, or a read-only debuggee location).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

/// <summary>An exception the interpreted code threw: answered as the call having thrown it.</summary>
public sealed class IlThrown(string typeName, string message) : Exception(message)
{
    public string TypeName { get; } = typeName;
    /// <summary>The exception object (adapter-side) a catch handler gets; made on first catch for the runtime's own exceptions.</summary>
    public LocalObject? Object { get; set; }
}

/// <summary>A non-null reference to a debuggee object (class instance, array, boxed value).</summary>
public sealed class DebuggeeObject
{
    private readonly ICorDebugValue? _reference;
    private ICorDebugValue? _target;
    private readonly Func<ICorDebugValue>? _make;
    private readonly ulong _address;

    public DebuggeeObject(ICorDebugValue reference, ICorDebugValue target) => (_reference, _target) = (reference, target);

    /// <summary>A class instance (not a box or an array) known by its address, its ICorDebug value made only when
    /// something needs it (a breakpoint condition's getter whose fields are read from memory needs none).</summary>
    public DebuggeeObject(ulong address, Func<ICorDebugValue> make) => (_address, _make) = (address, make);

    public ICorDebugValue Reference => _reference ?? Target;
    /// <summary>The dereferenced object (ICorDebugObjectValue, ICorDebugArrayValue or ICorDebugBoxValue).</summary>
    public ICorDebugValue Target => _target ??= _make!();
    public ulong Address => _address != 0 ? _address : Target.GetAddress(out ulong address) >= 0 ? address : 0;
    public bool IsBox => _make is null && Target is ICorDebugBoxValue;
}

/// <summary>A struct in the debuggee (a field's or element's value), read field by field.</summary>
public sealed class DebuggeeStruct(ICorDebugValue value, IlNamed type)
{
    public ICorDebugValue Value { get; } = value;
    public IlNamed Type { get; } = type;
}

/// <summary>An object or struct the interpreted code made: its fields by name (absent ones hold their default).</summary>
public sealed class LocalObject(IlNamed type)
{
    public IlNamed Type { get; } = type;
    public Dictionary<string, object?> Fields { get; private init; } = new(StringComparer.Ordinal);

    /// <summary>A struct's copy (value semantics); nested structs copied too.</summary>
    public LocalObject Copy() => new(Type) { Fields = Fields.ToDictionary(p => p.Key, p => IlValue.CopyIfStruct(p.Value), StringComparer.Ordinal) };
}

/// <summary>A value type boxed by the interpreted code.</summary>
public sealed class LocalBox(object? value, IlType type)
{
    public object? Value { get; set; } = value;
    public IlType Type { get; } = type;
}

/// <summary>An array the interpreted code made.</summary>
public sealed class LocalArray(IlType element, object?[] items)
{
    public IlType Element { get; } = element;
    public object?[] Items { get; } = items;
}

/// <summary>What `ldtoken` of a field pushes: the field whose static data initializes an array.</summary>
public sealed record FieldToken(IlField Field);

/// <summary>What `ldtoken` of a type pushes (its RuntimeTypeHandle): the type as the adapter knows it.</summary>
public sealed record TypeHandleValue(IlType Type);

/// <summary>`typeof(T)` (Type.GetTypeFromHandle of a type token) as the adapter knows it: compared by identity of
/// the type, never a debuggee RuntimeType object (where one would be needed, the interpreter refuses).</summary>
public sealed record TypeValue(IlType Type);

/// <summary>A managed pointer: what ldloca, ldarga, ldflda and ldelema push.</summary>
public abstract class IlRef
{
    public abstract object? Get();
    public abstract void Set(object? value);
}

public sealed class SlotRef(object?[] slots, int index) : IlRef
{
    public override object? Get() => slots[index];
    public override void Set(object? value) => slots[index] = IlValue.CopyIfStruct(value);
}

public sealed class FieldRef(LocalObject owner, string field, Func<object?> initial) : IlRef
{
    public override object? Get() => owner.Fields.TryGetValue(field, out object? value) ? value : owner.Fields[field] = initial();
    public override void Set(object? value) => owner.Fields[field] = IlValue.CopyIfStruct(value);
}

/// <summary>An element of an array the interpreter made; moved by Unsafe.Add (a span's reference walks its array).</summary>
public sealed class ElementRef(LocalArray array, long index) : IlRef, IArrayElementRef
{
    public override object? Get() => array.Items[InBounds()];
    public override void Set(object? value) => array.Items[InBounds()] = IlValue.CopyIfStruct(value);
    public IlRef Moved(long by) => new ElementRef(array, index + by);
    public bool SameAs(IArrayElementRef other) => other is ElementRef e && ReferenceEquals(e.Array, array) && e.Index == index;
    private LocalArray Array => array;
    private long Index => index;
    private int InBounds() => index >= 0 && index < array.Items.Length ? (int)index : throw new IlRefusal("reads outside an array through a pointer");
}

/// <summary>An element of a debuggee array: read, never written; moved by Unsafe.Add like ElementRef.</summary>
public sealed class DebuggeeElementRef(IlDebuggee debuggee, DebuggeeObject array, long index) : IlRef, IArrayElementRef
{
    public override object? Get() => index >= 0 && index < debuggee.Length(array) ? debuggee.Element(array, index)
        : throw new IlRefusal("reads outside an array through a pointer");
    public override void Set(object? value) => throw new IlRefusal("stores into an element of a debuggee array");
    public IlRef Moved(long by) => new DebuggeeElementRef(debuggee, array, index + by);
    public bool SameAs(IArrayElementRef other) => other is DebuggeeElementRef e && e.Array.Address == array.Address && e.Index == index;
    private DebuggeeObject Array => array;
    private long Index => index;
}

/// <summary>A pointer to an array element, which pointer arithmetic by whole elements moves within its array.</summary>
public interface IArrayElementRef
{
    IlRef Moved(long by);
    bool SameAs(IArrayElementRef other);
}

public sealed class BoxRef(LocalBox box) : IlRef
{
    public override object? Get() => box.Value;
    public override void Set(object? value) => box.Value = IlValue.CopyIfStruct(value);
}

/// <summary>Unsafe.NullRef: a managed pointer to nothing (reading or writing through it throws, as in the runtime).</summary>
public sealed class NullPointer : IlRef
{
    public static readonly NullPointer Instance = new();
    public override object? Get() => throw IlErrors.NullReference();
    public override void Set(object? value) => throw IlErrors.NullReference();
}

/// <summary>A field of a debuggee object or struct: read as this evaluation sees it; a store is a lazy cache's fill or refused.</summary>
public sealed class DebuggeeFieldRef(IlDebuggee debuggee, object owner, IlField field) : IlRef
{
    public override object? Get() => debuggee.Field(owner, field);
    public override void Set(object? value) => debuggee.FillCache(owner, field, value);
}

/// <summary>A location in the debuggee (an element, a static, a struct's storage): read, never written.</summary>
public sealed class DebuggeeRef(object? value, string what) : IlRef
{
    public override object? Get() => value;
    public override void Set(object? value) => throw new IlRefusal($"stores into {what}");
}

public static class IlValue
{
    public static object? CopyIfStruct(object? value) => value is LocalObject { Type.IsValueType: true } local ? local.Copy() : value;

    /// <summary>A value widened to its IL stack type: small integers and bool/char to int, float to double, native ints to long.</summary>
    public static object? ToStack(object? value) => value switch
    {
        bool b => b ? 1 : 0,
        char c => (int)c,
        sbyte v => (int)v, byte v => (int)v, short v => (int)v, ushort v => (int)v, uint v => unchecked((int)v),
        ulong v => unchecked((long)v), nint v => (long)v, nuint v => unchecked((long)v), float v => (double)v,
        _ => value,
    };

    /// <summary>A stack value narrowed to a primitive element type (what a store into a typed slot keeps).</summary>
    public static object? Narrow(object? value, IlType type)
    {
        if (type is not IlPrimitive { IsValueType: true } primitive) return value;
        return primitive.ElementType switch
        {
            CorElementType.Boolean => AsLong(value) != 0 ? 1 : 0,
            CorElementType.Char => (int)(char)AsLong(value),
            CorElementType.I1 => (int)(sbyte)AsLong(value), CorElementType.U1 => (int)(byte)AsLong(value),
            CorElementType.I2 => (int)(short)AsLong(value), CorElementType.U2 => (int)(ushort)AsLong(value),
            CorElementType.I4 or CorElementType.U4 => unchecked((int)AsLong(value)),
            CorElementType.I8 or CorElementType.U8 or CorElementType.I or CorElementType.U => value is double d ? (long)d : AsLong(value),
            CorElementType.R4 => (double)(float)AsDouble(value), CorElementType.R8 => AsDouble(value),
            _ => value,
        };
    }

    public static long AsLong(object? value) => value switch
    {
        int i => i, long l => l, double d => (long)d, null => 0,
        _ => throw new IlRefusal($"expects a number, found {Describe(value)}"),
    };

    public static double AsDouble(object? value) => value switch
    {
        int i => i, long l => l, double d => d, _ => throw new IlRefusal($"expects a number, found {Describe(value)}"),
    };

    /// <summary>A stack value as the .NET value of a primitive type (for results and intrinsics).</summary>
    public static object? ToClr(object? value, IlType type)
    {
        if (type is not IlPrimitive { IsValueType: true } primitive) return value is LocalBox box ? box.Value : value;
        return primitive.ElementType switch
        {
            CorElementType.Boolean => AsLong(value) != 0,
            CorElementType.Char => (char)AsLong(value),
            CorElementType.I1 => (sbyte)AsLong(value), CorElementType.U1 => (byte)AsLong(value),
            CorElementType.I2 => (short)AsLong(value), CorElementType.U2 => (ushort)AsLong(value),
            CorElementType.I4 => unchecked((int)AsLong(value)), CorElementType.U4 => unchecked((uint)AsLong(value)),
            CorElementType.I8 => AsLong(value), CorElementType.U8 => unchecked((ulong)AsLong(value)),
            CorElementType.I => (nint)AsLong(value), CorElementType.U => unchecked((nuint)AsLong(value)),
            CorElementType.R4 => (float)AsDouble(value), CorElementType.R8 => AsDouble(value),
            _ => value,
        };
    }

    public static string Describe(object? value) => value switch
    {
        null => "null", string => "a string", DebuggeeObject => "a debuggee object", DebuggeeStruct s => $"a {s.Type.Key}",
        LocalObject o => $"a {o.Type.Key}", IlRef => "a pointer",
        TypeValue t => $"typeof({t.Type.Key})", TypeHandleValue h => $"the type handle of {h.Type.Key}",
        MadeDelegate d => $"a {d.Type.Key} delegate made by the interpreter", MethodPointer => "a method pointer", _ => value.GetType().Name,
    };
}
