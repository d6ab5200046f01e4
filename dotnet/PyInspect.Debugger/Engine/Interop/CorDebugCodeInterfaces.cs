// ICorDebug interfaces for code: modules, functions, IL code, breakpoints, steppers and
// classes, in cordebug.idl's vtable order.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

[GeneratedComInterface]
[Guid("dba2d8c1-e5c5-4069-8c13-10a7c6abf43d")]
public partial interface ICorDebugModule
{
    [PreserveSig] int GetProcess(out nint process);
    [PreserveSig] int GetBaseAddress(out ulong address);
    [PreserveSig] int GetAssembly(out nint assembly);
    [PreserveSig] unsafe int GetName(uint bufferLength, out uint nameLength, char* name);
    [PreserveSig] int EnableJITDebugging(int trackJitInfo, int allowJitOpts);
    [PreserveSig] int EnableClassLoadCallbacks(int enable);
    [PreserveSig] int GetFunctionFromToken(int methodDef, out ICorDebugFunction function);
    [PreserveSig] int GetFunctionFromRVA(ulong rva, out nint function);
    [PreserveSig] int GetClassFromToken(int typeDef, out ICorDebugClass @class);
}

[GeneratedComInterface]
[Guid("7FCC5FB5-49C0-41de-9938-3B88B5B9ADD7")]
public partial interface ICorDebugModule2
{
    [PreserveSig] int SetJMCStatus(int isJustMyCode, uint tokenCount, nint tokens);
    [PreserveSig] int ApplyChanges(uint metadataSize, nint metadata, uint ilSize, nint il);
    [PreserveSig] int SetJITCompilerFlags(uint flags);
}

[GeneratedComInterface]
[Guid("CC7BCAF3-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugFunction
{
    [PreserveSig] int GetModule(out ICorDebugModule module);
    [PreserveSig] int GetClass(out ICorDebugClass @class);
    [PreserveSig] int GetToken(out int methodDef);
    [PreserveSig] int GetILCode(out ICorDebugCode code);
}

[GeneratedComInterface]
[Guid("EF0C490B-94C3-4E4D-B629-DDC134C532D8")]
public partial interface ICorDebugFunction2
{
    [PreserveSig] int SetJMCStatus(int isJustMyCode);
    [PreserveSig] int GetJMCStatus(out int isJustMyCode);
}

[GeneratedComInterface]
[Guid("CC7BCAF4-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugCode
{
    [PreserveSig] int IsIL(out int isIL);
    [PreserveSig] int GetFunction(out ICorDebugFunction function);
    [PreserveSig] int GetAddress(out ulong start);
    [PreserveSig] int GetSize(out uint size);
    [PreserveSig] int CreateBreakpoint(uint offset, out ICorDebugFunctionBreakpoint breakpoint);
}

[GeneratedComInterface]
[Guid("CC7BCAE8-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugBreakpoint
{
    [PreserveSig] int Activate(int active);
    [PreserveSig] int IsActive(out int active);
}

[GeneratedComInterface]
[Guid("CC7BCAE9-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugFunctionBreakpoint : ICorDebugBreakpoint
{
    [PreserveSig] int GetFunction(out ICorDebugFunction function);
    [PreserveSig] int GetOffset(out uint offset);
}

[StructLayout(LayoutKind.Sequential)]
public struct CorDebugStepRange
{
    public uint StartOffset;
    public uint EndOffset;
}

[GeneratedComInterface]
[Guid("CC7BCAEC-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugStepper
{
    [PreserveSig] int IsActive(out int active);
    [PreserveSig] int Deactivate();
    [PreserveSig] int SetInterceptMask(int mask);
    [PreserveSig] int SetUnmappedStopMask(int mask);
    [PreserveSig] int Step(int stepIn);
    [PreserveSig] unsafe int StepRange(int stepIn, CorDebugStepRange* ranges, uint rangeCount);
    [PreserveSig] int StepOut();
    [PreserveSig] int SetRangeIL(int il);
}

[GeneratedComInterface]
[Guid("C5B6E9C3-E7D1-4a8e-873B-7F047F0706F7")]
public partial interface ICorDebugStepper2
{
    [PreserveSig] int SetJMC(int isJmcStepper);
}

[GeneratedComInterface]
[Guid("CC7BCAF5-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugClass
{
    [PreserveSig] int GetModule(out ICorDebugModule module);
    [PreserveSig] int GetToken(out int typeDef);
    [PreserveSig] int GetStaticFieldValue(int fieldDef, ICorDebugFrame? frame, out ICorDebugValue value);
}
