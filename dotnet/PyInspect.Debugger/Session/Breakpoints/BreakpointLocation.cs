// Two ICorDebug breakpoints at the same place (module, method, IL offset): a callback hands
// back its own wrapper, so identity is by location.
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Session;

public static class BreakpointLocation
{
    public static bool Same(ICorDebugFunctionBreakpoint a, ICorDebugFunctionBreakpoint b)
    {
        if (a.GetOffset(out uint offsetA) < 0 || b.GetOffset(out uint offsetB) < 0 || offsetA != offsetB) return false;
        if (a.GetFunction(out var fa) < 0 || b.GetFunction(out var fb) < 0) return false;
        fa.GetToken(out int tokenA);
        fb.GetToken(out int tokenB);
        if (tokenA != tokenB) return false;
        fa.GetModule(out var ma);
        fb.GetModule(out var mb);
        return DebuggerEngine.ModuleName(ma) == DebuggerEngine.ModuleName(mb);
    }
}
