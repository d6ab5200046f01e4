// The types the IL interpreter reasons about: primitives by element type, classes and
// structs by module and TypeDef token with their type arguments, arrays, pointers and
// unresolved generic parameters. Compared by Key (a canonical spelling).
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Evaluation.IL.Metadata;

public abstract record IlType
{
    public abstract string Key { get; }
    public virtual bool IsValueType => false;
    public override string ToString() => Key;
    public bool SameAs(IlType? other) => other is not null && other.Key == Key;
}

/// <summary>bool, char, the integers, floats, native ints, string, object, void.</summary>
public sealed record IlPrimitive(int ElementType) : IlType
{
    public override string Key => ElementType switch
    {
        CorElementType.Boolean => "System.Boolean", CorElementType.Char => "System.Char",
        CorElementType.I1 => "System.SByte", CorElementType.U1 => "System.Byte", CorElementType.I2 => "System.Int16",
        CorElementType.U2 => "System.UInt16", CorElementType.I4 => "System.Int32", CorElementType.U4 => "System.UInt32",
        CorElementType.I8 => "System.Int64", CorElementType.U8 => "System.UInt64", CorElementType.R4 => "System.Single",
        CorElementType.R8 => "System.Double", CorElementType.I => "System.IntPtr", CorElementType.U => "System.UIntPtr",
        CorElementType.String => "System.String", CorElementType.Object => "System.Object", _ => "System.Void",
    };

    public override bool IsValueType => ElementType is not (CorElementType.String or CorElementType.Object or CorElementType.Void);

    public static readonly IlPrimitive Object = new(CorElementType.Object);
    public static readonly IlPrimitive String = new(CorElementType.String);

    /// <summary>The element type of a CoreLib primitive's full name, or null.</summary>
    public static int? ElementTypeOf(string fullName) => fullName switch
    {
        "System.Boolean" => CorElementType.Boolean, "System.Char" => CorElementType.Char, "System.SByte" => CorElementType.I1,
        "System.Byte" => CorElementType.U1, "System.Int16" => CorElementType.I2, "System.UInt16" => CorElementType.U2,
        "System.Int32" => CorElementType.I4, "System.UInt32" => CorElementType.U4, "System.Int64" => CorElementType.I8,
        "System.UInt64" => CorElementType.U8, "System.Single" => CorElementType.R4, "System.Double" => CorElementType.R8,
        "System.IntPtr" => CorElementType.I, "System.UIntPtr" => CorElementType.U, "System.String" => CorElementType.String,
        "System.Object" => CorElementType.Object, "System.Void" => CorElementType.Void,
        _ => null,
    };
}

/// <summary>A class, struct, enum or interface: its module, TypeDef token, metadata name and type arguments.</summary>
public sealed record IlNamed(string ModulePath, int Token, string Name, IReadOnlyList<IlType> Arguments, IlTypeKind Kind) : IlType
{
    public override string Key => Arguments.Count == 0 ? Name : $"{Name}<{string.Join(",", Arguments.Select(a => a.Key))}>";
    public override bool IsValueType => Kind is IlTypeKind.Struct or IlTypeKind.Enum;
    public bool IsInterface => Kind == IlTypeKind.Interface;
}

public enum IlTypeKind { Class, Struct, Enum, Interface }

/// <summary>T[] (Rank 0) or T[,] (Rank 2+).</summary>
public sealed record IlArray(IlType Element, int Rank) : IlType
{
    public override string Key => Element.Key + (Rank <= 1 ? "[]" : "[" + new string(',', Rank - 1) + "]");
}

/// <summary>A managed (T&amp;) or unmanaged (T*) pointer.</summary>
public sealed record IlPointer(IlType Element, bool Managed) : IlType
{
    public override string Key => Element.Key + (Managed ? "&" : "*");
}

/// <summary>A generic parameter not substituted (!0 of the type, !!0 of the method): what
/// signatures are compared with when looking for an override.</summary>
public sealed record IlGenericParameter(bool OfMethod, int Index) : IlType
{
    public override string Key => (OfMethod ? "!!" : "!") + Index;
}

/// <summary>The type and method arguments a signature's generic parameters stand for (null: keep them as parameters).</summary>
public sealed record IlGenericContext(IReadOnlyList<IlType>? TypeArguments, IReadOnlyList<IlType>? MethodArguments)
{
    public static readonly IlGenericContext Open = new(null, null);
}
