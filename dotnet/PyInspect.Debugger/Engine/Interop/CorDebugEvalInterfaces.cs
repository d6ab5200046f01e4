// ICorDebug interfaces for running code in the debuggee (func-eval), handles that keep an
// object alive and valid across it, and generic class instantiation; cordebug.idl order.
// Arrays of interface pointers are passed as raw pointers (see FuncEval.Pointers).
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

[GeneratedComInterface]
[Guid("CC7BCAF6-8A68-11D2-983C-0000F808342D")]
public unsafe partial interface ICorDebugEval
{
    [PreserveSig] int CallFunction(ICorDebugFunction function, uint argCount, nint* args);
    [PreserveSig] int NewObject(ICorDebugFunction constructor, uint argCount, nint* args);
    [PreserveSig] int NewObjectNoConstructor(ICorDebugClass @class);
    [PreserveSig] int NewString([MarshalAs(UnmanagedType.LPWStr)] string text);
    [PreserveSig] int NewArray(int elementType, ICorDebugClass? elementClass, uint rank, uint* dimensions, uint* lowBounds);
    [PreserveSig] int IsActive(out int active);
    [PreserveSig] int Abort();
    [PreserveSig] int GetResult(out ICorDebugValue? result);
    [PreserveSig] int GetThread(out ICorDebugThread thread);
    [PreserveSig] int CreateValue(int elementType, ICorDebugClass? elementClass, out ICorDebugValue value);
}

[GeneratedComInterface]
[Guid("FB0D9CE7-BE66-4683-9D32-A42A04E2FD91")]
public unsafe partial interface ICorDebugEval2
{
    [PreserveSig] int CallParameterizedFunction(ICorDebugFunction function, uint typeArgCount, nint* typeArgs, uint argCount, nint* args);
    [PreserveSig] int CreateValueForType(ICorDebugType type, out ICorDebugValue value);
    [PreserveSig] int NewParameterizedObject(ICorDebugFunction constructor, uint typeArgCount, nint* typeArgs, uint argCount, nint* args);
    [PreserveSig] int NewParameterizedObjectNoConstructor(ICorDebugClass @class, uint typeArgCount, nint* typeArgs);
    [PreserveSig] int NewParameterizedArray(ICorDebugType elementType, uint rank, uint* dimensions, uint* lowBounds);
    [PreserveSig] int NewStringWithLength([MarshalAs(UnmanagedType.LPWStr)] string text, uint length);
    [PreserveSig] int RudeAbort();
}

[GeneratedComInterface]
[Guid("B008EA8D-7AB1-43f7-BB20-FBB5A04038AE")]
public unsafe partial interface ICorDebugClass2
{
    [PreserveSig] int GetParameterizedType(int elementType, uint typeArgCount, nint* typeArgs, out ICorDebugType type);
    [PreserveSig] int SetJMCStatus(int isJustMyCode);
}

[GeneratedComInterface]
[Guid("E3AC4D6C-9CB7-43e6-96CC-B21540E5083C")]
public partial interface ICorDebugHeapValue2
{
    /// <summary>handleType: 1 strong, 2 weak-track-resurrection.</summary>
    [PreserveSig] int CreateHandle(int handleType, out ICorDebugHandleValue handle);
}

[GeneratedComInterface]
[Guid("029596E8-276B-46a1-9821-732E96BBB00B")]
public partial interface ICorDebugHandleValue : ICorDebugReferenceValue
{
    [PreserveSig] int GetHandleType(out int handleType);
    [PreserveSig] int Dispose();
}
