// ICorDebug process-level interfaces we call, declared in exact vtable order from the
// runtime's cordebug.idl. Slots we never call keep their place with untyped parameters.
// Interface pointers passed through callbacks stay nint so nothing is marshalled on the
// debugger's callback thread.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

[GeneratedComInterface]
[Guid("3d6f5f61-7538-11d3-8d5b-00104b35e7ef")]
public partial interface ICorDebug
{
    [PreserveSig] int Initialize();
    [PreserveSig] int Terminate();
    [PreserveSig] int SetManagedHandler(nint callback);
    [PreserveSig] int SetUnmanagedHandler(nint callback);
    [PreserveSig] int CreateProcess(nint a, nint b, nint c, nint d, int e, uint f, nint g, nint h, nint i, nint j, int k, out nint process);
    [PreserveSig] int DebugActiveProcess(uint processId, int win32Attach, out nint process);
}

[GeneratedComInterface]
[Guid("3d6f5f62-7538-11d3-8d5b-00104b35e7ef")]
public partial interface ICorDebugController
{
    [PreserveSig] int Stop(uint timeoutMs);
    [PreserveSig] int Continue(int isOutOfBand);
    [PreserveSig] int IsRunning(out int running);
    [PreserveSig] int HasQueuedCallbacks(nint thread, out int queued);
    [PreserveSig] int EnumerateThreads(out nint threadEnum);
    [PreserveSig] int SetAllThreadsDebugState(int state, nint exceptThisThread);
    [PreserveSig] int Detach();
    [PreserveSig] int Terminate(uint exitCode);
}

[GeneratedComInterface]
[Guid("3d6f5f64-7538-11d3-8d5b-00104b35e7ef")]
public partial interface ICorDebugProcess : ICorDebugController
{
    [PreserveSig] int CanCommitChanges(uint count, nint snapshots, out nint error);
    [PreserveSig] int CommitChanges(uint count, nint snapshots, out nint error);
    [PreserveSig] int GetID(out uint processId);
    [PreserveSig] int GetHandle(out nint handle);
    [PreserveSig] int GetThread(uint threadId, out ICorDebugThread thread);
    [PreserveSig] int EnumerateObjects(out nint objects);
    [PreserveSig] int IsTransitionStub(ulong address, out int isStub);
    [PreserveSig] int IsOSSuspended(uint threadId, out int suspended);
    [PreserveSig] unsafe int GetThreadContext(uint threadId, uint contextSize, byte* context);
    [PreserveSig] unsafe int SetThreadContext(uint threadId, uint contextSize, byte* context);
    [PreserveSig] unsafe int ReadMemory(ulong address, uint size, byte* buffer, out nuint read);
    [PreserveSig] unsafe int WriteMemory(ulong address, uint size, byte* buffer, out nuint written);
}

/// <summary>The managed heap's side of a process; we call GetObject (an object value from its
/// address, with no frame: a breakpoint condition's getter receiver). Slots in cordebug.idl's order.</summary>
[GeneratedComInterface]
[Guid("21e9d9c0-fcb8-11df-8cff-0800200c9a66")]
public partial interface ICorDebugProcess5
{
    [PreserveSig] int GetGCHeapInformation(nint heapInfo);
    [PreserveSig] int EnumerateHeap(out nint objects);
    [PreserveSig] int EnumerateHeapRegions(out nint regions);
    [PreserveSig] int GetObject(ulong address, out ICorDebugObjectValue value);
    [PreserveSig] int EnumerateGCReferences(int enumerateWeakReferences, out nint references);
    [PreserveSig] int EnumerateHandles(int types, out nint handles);
    [PreserveSig] int GetTypeID(ulong address, nint typeId);
    [PreserveSig] int GetTypeForTypeID(ulong typeIdToken1, ulong typeIdToken2, out nint type);
    [PreserveSig] int GetArrayLayout(ulong typeIdToken1, ulong typeIdToken2, nint layout);
    [PreserveSig] int GetTypeLayout(ulong typeIdToken1, ulong typeIdToken2, nint layout);
    [PreserveSig] int GetTypeFields(ulong typeIdToken1, ulong typeIdToken2, uint count, nint fields, out uint needed);
    [PreserveSig] int EnableNGENPolicy(int policy);
}

[GeneratedComInterface]
[Guid("CC7BCB01-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugEnum
{
    [PreserveSig] int Skip(uint count);
    [PreserveSig] int Reset();
    [PreserveSig] int Clone(out nint clone);
    [PreserveSig] int GetCount(out uint count);
}

[GeneratedComInterface]
[Guid("CC7BCB06-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugThreadEnum : ICorDebugEnum
{
    [PreserveSig] unsafe int Next(uint count, nint* threads, out uint fetched);
}

[GeneratedComInterface]
[Guid("938c6d66-7fb6-4f69-b389-425b8987329b")]
public partial interface ICorDebugThread
{
    [PreserveSig] int GetProcess(out nint process);
    [PreserveSig] int GetID(out uint threadId);
    [PreserveSig] int GetHandle(out nint handle);
    [PreserveSig] int GetAppDomain(out nint appDomain);
    [PreserveSig] int SetDebugState(int state);
    [PreserveSig] int GetDebugState(out int state);
    [PreserveSig] int GetUserState(out int state);
    [PreserveSig] int GetCurrentException(out ICorDebugValue exception);
    [PreserveSig] int ClearCurrentException();
    [PreserveSig] int CreateStepper(out ICorDebugStepper stepper);
    [PreserveSig] int EnumerateChains(out nint chains);
    [PreserveSig] int GetActiveChain(out nint chain);
    [PreserveSig] int GetActiveFrame(out ICorDebugFrame frame);
    [PreserveSig] int GetRegisterSet(out nint registers);
    [PreserveSig] int CreateEval(out nint eval);
    [PreserveSig] int GetObject(out ICorDebugValue thread);
}

[GeneratedComInterface]
[Guid("F8544EC3-5E4E-46c7-8D3E-A52B8405B1F5")]
public partial interface ICorDebugThread3
{
    [PreserveSig] int CreateStackWalk(out ICorDebugStackWalk stackWalk);
}

[GeneratedComInterface]
[Guid("A0647DE9-55DE-4816-929C-385271C64CF7")]
public partial interface ICorDebugStackWalk
{
    [PreserveSig] int GetContext(uint flags, uint bufferSize, out uint contextSize, nint buffer);
    [PreserveSig] int SetContext(int flag, uint contextSize, nint context);
    [PreserveSig] int Next();
    [PreserveSig] int GetFrame(out ICorDebugFrame? frame);
}

[GeneratedComInterface]
[Guid("CC7BCAEF-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugFrame
{
    [PreserveSig] int GetChain(out nint chain);
    [PreserveSig] int GetCode(out ICorDebugCode code);
    [PreserveSig] int GetFunction(out ICorDebugFunction function);
    [PreserveSig] int GetFunctionToken(out int token);
    [PreserveSig] int GetStackRange(out ulong start, out ulong end);
    [PreserveSig] int GetCaller(out nint frame);
    [PreserveSig] int GetCallee(out nint frame);
    [PreserveSig] int CreateStepper(out ICorDebugStepper stepper);
}

[GeneratedComInterface]
[Guid("03E26311-4F76-11d3-88C6-006097945418")]
public partial interface ICorDebugILFrame : ICorDebugFrame
{
    [PreserveSig] int GetIP(out uint offset, out int mappingResult);
    [PreserveSig] int SetIP(uint offset);
    [PreserveSig] int EnumerateLocalVariables(out nint values);
    [PreserveSig] int GetLocalVariable(uint index, out ICorDebugValue value);
    [PreserveSig] int EnumerateArguments(out nint values);
    [PreserveSig] int GetArgument(uint index, out ICorDebugValue value);
    [PreserveSig] int GetStackDepth(out uint depth);
    [PreserveSig] int GetStackValue(uint index, out ICorDebugValue value);
    [PreserveSig] int CanSetIP(uint offset);
}
