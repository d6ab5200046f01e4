// Following one object of the debuggee across garbage collections (a strong handle moves
// with it) and telling whether a reference points at that same object.
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

public static class ObjectHandles
{
    /// <summary>A strong handle to the object a reference points at: it follows the object across GCs.</summary>
    public static ICorDebugHandleValue? HoldStrongly(ICorDebugValue reference) =>
        ValuePath.Dereference(reference) is ICorDebugHeapValue2 heap && heap.CreateHandle(1, out var handle) >= 0 ? handle : null;

    public static bool SameObject(ICorDebugValue reference, ICorDebugHandleValue handle) =>
        reference is ICorDebugReferenceValue r && r.GetValue(out ulong a) >= 0 && handle.GetValue(out ulong b) >= 0 && a == b && a != 0;
}
