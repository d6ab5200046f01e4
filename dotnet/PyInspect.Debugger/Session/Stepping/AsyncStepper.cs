// Stepping over an `await`. An async method runs in its state machine's MoveNext; at an
// await whose task is not done yet, MoveNext returns and a later call (often on another
// thread) resumes it. A plain step would stop wherever the thread goes after the return.
// So a step over a statement holding an await also plants breakpoints where the PDB says
// this method resumes, and ignores a step that ends while the machine is suspended; when
// the same machine (same object, followed by a handle across GCs) resumes, the step
// carries on from there to the next line, on whichever thread resumed it.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed class AsyncStepper(Debuggee debuggee)
{
    /// <summary>A step over an await in flight: the state machine it follows and its resume breakpoints.</summary>
    private sealed record AsyncStep(ICorDebugHandleValue Machine, List<ICorDebugFunctionBreakpoint> ResumeBreakpoints);

    private AsyncStep? _asyncStep;

    /// <summary>Before a step over: when the statement holds an await, follow its state machine.</summary>
    public void Prepare(uint threadId, ICorDebugThread thread)
    {
        End();
        FrameInfo? top = debuggee.Walk(threadId, thread, 1).FirstOrDefault();
        if (top?.Module?.Symbols is not { } symbols || !StateMachineFrames.IsMoveNext(top)) return;
        var ranges = symbols.GetStepRanges(top.MethodToken, (int)top.IlOffset);
        var awaits = symbols.AwaitPoints(top.MethodToken)
            .Where(a => ranges.Any(r => a.YieldOffset >= r.Start && a.YieldOffset < r.End)).ToList();
        if (awaits.Count == 0 || top.Frame.GetArgument(0, out var machine) < 0) return;
        if (ObjectHandles.HoldStrongly(machine) is not { } handle) return;
        var breakpoints = new List<ICorDebugFunctionBreakpoint>();
        foreach (AwaitPoint point in awaits)
            if (top.Module.Module.GetFunctionFromToken(point.ResumeMethodToken, out var function) >= 0
                && function.GetILCode(out var code) >= 0 && code.CreateBreakpoint((uint)point.ResumeOffset, out var breakpoint) >= 0)
            {
                breakpoint.Activate(1);
                breakpoints.Add(breakpoint);
            }
        _asyncStep = new AsyncStep(handle, breakpoints);
    }

    /// <summary>A step that ended while its state machine is suspended at the await: not a stop, keep waiting.</summary>
    public bool StepEndedInsideAwait() => _asyncStep is { } step && StateMachineSuspended(step.Machine);

    /// <summary>A resume breakpoint: true when it is ours. `resumedOn` is the thread the
    /// stepped machine resumed on (the step carries on from there), null when another
    /// instance of the method resumed or the thread is gone.</summary>
    public bool IsResume(uint threadId, ICorDebugFunctionBreakpoint breakpoint, out ICorDebugThread? resumedOn)
    {
        resumedOn = null;
        if (_asyncStep is not { } step || !step.ResumeBreakpoints.Any(b => BreakpointLocation.Same(b, breakpoint))) return false;
        if (debuggee.Thread(threadId) is not { } thread) return true;
        FrameInfo? top = debuggee.Walk(threadId, thread, 1).FirstOrDefault();
        if (top is null || top.Frame.GetArgument(0, out var machine) < 0 || !ObjectHandles.SameObject(machine, step.Machine))
            return true;  // another instance of the same async method resumed: not the one being stepped
        End();
        resumedOn = thread;
        return true;
    }

    public void End()
    {
        if (_asyncStep is not { } step) return;
        _asyncStep = null;
        foreach (var breakpoint in step.ResumeBreakpoints) breakpoint.Activate(0);
        step.Machine.Dispose();
    }

    /// <summary>The machine's `&lt;&gt;1__state` is 0 or more while it waits at an await (-1 running, -2 done).</summary>
    private static bool StateMachineSuspended(ICorDebugHandleValue machine) => StateMachineFrames.State(machine) >= 0;
}
