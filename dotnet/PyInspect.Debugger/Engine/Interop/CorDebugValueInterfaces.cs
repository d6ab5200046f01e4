// ICorDebug value and type interfaces, in cordebug.idl's vtable order.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

[GeneratedComInterface]
[Guid("CC7BCAF7-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugValue
{
    [PreserveSig] int GetType(out int elementType);
    [PreserveSig] int GetSize(out uint size);
    [PreserveSig] int GetAddress(out ulong address);
    [PreserveSig] int CreateBreakpoint(out nint breakpoint);
}

[GeneratedComInterface]
[Guid("5E0B54E7-D88A-4626-9420-A691E0A78B49")]
public partial interface ICorDebugValue2
{
    [PreserveSig] int GetExactType(out ICorDebugType type);
}

[GeneratedComInterface]
[Guid("CC7BCAF8-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugGenericValue : ICorDebugValue
{
    [PreserveSig] int GetValue(nint to);
    [PreserveSig] int SetValue(nint from);
}

[GeneratedComInterface]
[Guid("CC7BCAF9-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugReferenceValue : ICorDebugValue
{
    [PreserveSig] int IsNull(out int isNull);
    [PreserveSig] int GetValue(out ulong address);
    [PreserveSig] int SetValue(ulong address);
    [PreserveSig] int Dereference(out ICorDebugValue value);
}

[GeneratedComInterface]
[Guid("CC7BCAFA-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugHeapValue : ICorDebugValue
{
    [PreserveSig] int IsValid(out int valid);
    [PreserveSig] int CreateRelocBreakpoint(out nint breakpoint);
}

[GeneratedComInterface]
[Guid("18AD3D6E-B7D2-11d2-BD04-0000F80849BD")]
public partial interface ICorDebugObjectValue : ICorDebugValue
{
    [PreserveSig] int GetClass(out ICorDebugClass @class);
    [PreserveSig] int GetFieldValue(ICorDebugClass @class, int fieldDef, out ICorDebugValue value);
    [PreserveSig] int GetVirtualMethod(int memberRef, out nint function);
    [PreserveSig] int GetContext(out nint context);
    [PreserveSig] int IsValueClass(out int isValueClass);
}

[GeneratedComInterface]
[Guid("CC7BCAFC-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugBoxValue : ICorDebugHeapValue
{
    [PreserveSig] int GetObject(out ICorDebugObjectValue value);
}

[GeneratedComInterface]
[Guid("CC7BCAFD-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugStringValue : ICorDebugHeapValue
{
    [PreserveSig] int GetLength(out uint length);
    [PreserveSig] unsafe int GetString(uint bufferLength, out uint length, char* text);
}

[GeneratedComInterface]
[Guid("0405B0DF-A660-11d2-BD02-0000F80849BD")]
public partial interface ICorDebugArrayValue : ICorDebugHeapValue
{
    [PreserveSig] int GetElementType(out int elementType);
    [PreserveSig] int GetRank(out uint rank);
    [PreserveSig] int GetCount(out uint count);
    [PreserveSig] unsafe int GetDimensions(uint rank, uint* dims);
    [PreserveSig] int HasBaseIndicies(out int has);
    [PreserveSig] unsafe int GetBaseIndicies(uint rank, uint* indices);
    [PreserveSig] unsafe int GetElement(uint rank, uint* indices, out ICorDebugValue value);
    [PreserveSig] int GetElementAtPosition(uint position, out ICorDebugValue value);
}

[GeneratedComInterface]
[Guid("D613F0BB-ACE1-4c19-BD72-E4C08D5DA7F5")]
public partial interface ICorDebugType
{
    [PreserveSig] int GetType(out int elementType);
    [PreserveSig] int GetClass(out ICorDebugClass @class);
    [PreserveSig] int EnumerateTypeParameters(out ICorDebugTypeEnum parameters);
    [PreserveSig] int GetFirstTypeParameter(out ICorDebugType parameter);
    [PreserveSig] int GetBase(out ICorDebugType? baseType);
    [PreserveSig] int GetStaticFieldValue(int fieldDef, ICorDebugFrame? frame, out ICorDebugValue value);
    [PreserveSig] int GetRank(out uint rank);
}

/// <summary>A type's identity in the runtime: Token1 is its TypeHandle (what a RuntimeType's m_handle holds).</summary>
[StructLayout(LayoutKind.Sequential)]
public struct CorTypeId
{
    public ulong Token1;
    public ulong Token2;
}

[GeneratedComInterface]
[Guid("E6E91D79-693D-48BC-B417-8284B4F10FB5")]
public partial interface ICorDebugType2
{
    [PreserveSig] unsafe int GetTypeID(CorTypeId* id);
}

[GeneratedComInterface]
[Guid("10F27499-9DF2-43ce-8333-A321D7C99CB4")]
public partial interface ICorDebugTypeEnum : ICorDebugEnum
{
    [PreserveSig] unsafe int Next(uint count, nint* types, out uint fetched);
}

/// <summary>CorElementType values the value layer distinguishes.</summary>
public static class CorElementType
{
    public const int Void = 0x1, Boolean = 0x2, Char = 0x3, I1 = 0x4, U1 = 0x5, I2 = 0x6, U2 = 0x7,
        I4 = 0x8, U4 = 0x9, I8 = 0xa, U8 = 0xb, R4 = 0xc, R8 = 0xd, String = 0xe, Ptr = 0xf,
        ByRef = 0x10, ValueType = 0x11, Class = 0x12, Array = 0x14, GenericInst = 0x15,
        I = 0x18, U = 0x19, FnPtr = 0x1b, Object = 0x1c, SzArray = 0x1d;
}

/// <summary>A delegate object: its target and its method (single-cast delegates to non-generic code; .NET 5 and later).</summary>
[GeneratedComInterface]
[Guid("3AF70CC7-6047-47F6-A5C5-090A1A622638")]
public partial interface ICorDebugDelegateObjectValue
{
    [PreserveSig] int GetTarget(out ICorDebugReferenceValue target);
    [PreserveSig] int GetFunction(out ICorDebugFunction function);
}
