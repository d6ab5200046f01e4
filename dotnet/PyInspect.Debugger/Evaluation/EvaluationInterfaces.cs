// ICorDebug interfaces only the evaluator uses, in cordebug.idl's vtable order: strong
// handles keep an object reachable (and its value usable) across func-evals.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Evaluation;

[GeneratedComInterface]
[Guid("E3AC4D6C-9CB7-43e6-96CC-B21540E5083C")]
public partial interface ICorDebugHeapValue2
{
    [PreserveSig] int CreateHandle(int handleType, out ICorDebugHandleValue handle);
}

[GeneratedComInterface]
[Guid("029596E8-276B-46a1-9821-732E96BBB00B")]
public partial interface ICorDebugHandleValue : ICorDebugReferenceValue
{
    [PreserveSig] int GetHandleType(out int handleType);
    [PreserveSig] int Dispose();
}
