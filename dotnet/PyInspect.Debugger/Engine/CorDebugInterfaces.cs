// ICorDebug interfaces we call, declared in exact vtable order from the runtime's
// cordebug.idl. Interface pointers we only pass through stay nint so no marshalling
// happens on the debugger's callback thread.
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
}
