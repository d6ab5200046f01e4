// Stepping over the end (the closing brace) of an async method that has already awaited:
// its caller is not on the stack, it resumes when the method's task completes, maybe on
// this thread (inside SetResult) or another. As Visual Studio does, the step goes on to
// the awaiting caller: the same wait-completion notification a step out uses (AsyncStepOut)
// leads back to it, and a step over from there finishes the caller's await statement, so
// the stop is on the line after its await.
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    /// <summary>A step over the end of an async method reached its caller through a step out:
    /// when that step out returns, step over the rest of the caller's await statement.</summary>
    private bool _steppingOffAsyncEnd;

    /// <summary>Before a step over: on an async method's closing brace (past the catch-all
    /// around its body), after it has awaited, arm the way back to the awaiting caller.</summary>
    private void PrepareStepOffAsyncEnd(uint threadId, ICorDebugThread thread)
    {
        _steppingOffAsyncEnd = false;
        FrameInfo? top = FrameWalker.Walk(threadId, thread, _modules, 1).FirstOrDefault();
        if (top?.Module?.Symbols is not { } symbols || !StateMachineFrames.IsMoveNext(top)
            || symbols.AsyncCatchHandlerOffset(top.MethodToken) is not int handler) return;
        var ranges = symbols.GetStepRanges(top.MethodToken, (int)top.IlOffset);
        if (ranges.Count == 0 || ranges[0].Start <= handler) return;
        // Only when user code awaits it: a method awaited by framework code (an endpoint)
        // ends its step there, as any step off the end of user code does.
        var frames = FrameWalker.Walk(threadId, thread, _modules, 64);
        if (AsyncCallStack.Callers(frames, _modules).FirstOrDefault()?.Source is null) return;
        _steppingOffAsyncEnd = PrepareAsyncStepOut(threadId, thread);
    }

    /// <summary>The step out to the awaiting caller returned there, inside its await
    /// statement: step over the rest of it (true: the step goes on).</summary>
    private bool StepOffAsyncEndGoesOn(uint threadId, ICorDebugThread thread, CorDebugStepReason reason)
    {
        if (!_steppingOffAsyncEnd || reason != CorDebugStepReason.Return || _asyncStepOut is not null) return false;
        _steppingOffAsyncEnd = false;
        FrameInfo? top = FrameWalker.Walk(threadId, thread, _modules, 1).FirstOrDefault();
        if (top?.Module?.Symbols is not { } symbols || AtStatementStart(top, symbols)) return false;
        PrepareAsyncStep(threadId, thread);  // the caller's statement may itself await further
        _activeStepper = Stepping.Begin(threadId, thread, StepKind.Over, _modules);
        return true;
    }
}
